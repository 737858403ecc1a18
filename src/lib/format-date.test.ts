import { describe, expect, it } from "vitest";
import { formatLongDate, postDate, readTimeLabel } from "./format-date.ts";

describe("formatLongDate", () => {
  it("writes the US long form", () => {
    expect(formatLongDate("2026-11-22T10:00:00.000Z")).toBe("November 22, 2026");
  });

  it("uses the UTC day, whatever the build machine's zone", () => {
    expect(formatLongDate("2026-01-01T23:30:00.000Z")).toBe("January 1, 2026");
    expect(formatLongDate("2026-01-01T00:30:00.000Z")).toBe("January 1, 2026");
  });
});

describe("postDate", () => {
  it("prefers the published date and falls back to the created date", () => {
    expect(postDate({ publishedAt: "2026-02-02T00:00:00Z", createdAt: "2026-01-01T00:00:00Z" })).toBe("2026-02-02T00:00:00Z");
    expect(postDate({ publishedAt: null, createdAt: "2026-01-01T00:00:00Z" })).toBe("2026-01-01T00:00:00Z");
  });
});

describe("readTimeLabel", () => {
  it("says minutes", () => {
    expect(readTimeLabel(6)).toBe("6 min read");
  });
});
