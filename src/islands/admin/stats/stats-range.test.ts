import { describe, expect, it } from "vitest";
import { conversion, focusedPath, lastDays, postStatsHash } from "./stats-range.ts";

describe("stats range", () => {
  it("counts the last n days with today included", () => {
    expect(lastDays(7, new Date(2026, 2, 10, 12))).toEqual({ from: "2026-03-04", to: "2026-03-10" });
    expect(lastDays(30, new Date(2026, 2, 1, 12))).toEqual({ from: "2026-01-31", to: "2026-03-01" });
  });

  it("writes conversion per 100 visitors", () => {
    expect(conversion(1, 3)).toBe("33.3%");
    expect(conversion(0, 10)).toBe("0.0%");
    expect(conversion(2, 0)).toBe("—");
  });

  it("reads the post a Recent Posts link asks for", () => {
    expect(focusedPath(postStatsHash("my-post"))).toBe("/blog/my-post");
    expect(focusedPath("#stats")).toBeNull();
    expect(focusedPath("#posts?path=/x")).toBeNull();
  });
});
