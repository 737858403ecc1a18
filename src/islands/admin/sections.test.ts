import { describe, expect, it } from "vitest";
import { adminSections, sectionOfPath, sectionPath } from "./sections.ts";

describe("dashboard section addresses", () => {
  it("reads the root and the section from an address, with or without a trailing slash", () => {
    expect(sectionOfPath("/admin-x1")).toEqual({ root: "/admin-x1", section: undefined });
    expect(sectionOfPath("/admin-x1/")).toEqual({ root: "/admin-x1", section: undefined });
    expect(sectionOfPath("/admin-x1/stats")).toEqual({ root: "/admin-x1", section: "stats" });
    expect(sectionOfPath("/admin-x1/stats/")).toEqual({ root: "/admin-x1", section: "stats" });
    // Not a section: part of the root, never a section of that name.
    expect(sectionOfPath("/admin-x1/nope")).toEqual({ root: "/admin-x1/nope", section: undefined });
    // The hidden path itself is never read as a section, whatever it is called.
    expect(sectionOfPath("/stats")).toEqual({ root: "/stats", section: undefined });
  });

  it("writes each section's address back to the same section", () => {
    for (const { value } of adminSections) expect(sectionOfPath(sectionPath("/admin-x1", value))).toEqual({ root: "/admin-x1", section: value });
  });
});
