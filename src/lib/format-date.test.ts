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

  it("says what Intl's en-US long date says, a day in each of 40 years and every month", () => {
    const intl = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
    for (let day = 0; day < 40 * 366; day += 17) {
      const iso = new Date(Date.UTC(2000, 0, 1) + day * 86_400_000 + (day % 24) * 3_600_000).toISOString();
      expect(formatLongDate(iso)).toBe(intl.format(new Date(iso)));
    }
  });

  it("refuses a date that is not one, as Intl did", () => {
    expect(() => formatLongDate("not a date")).toThrow(RangeError);
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
