import { describe, expect, it } from "vitest";
import { categoryStyle } from "./category-style.ts";

describe("categoryStyle", () => {
  it("colours entrepreneurship and mindset red", () => {
    expect(categoryStyle("Entrepreneurship").badge).toContain("bg-signal-dark");
    expect(categoryStyle("Mindset").badge).toContain("bg-signal-dark");
  });

  it("colours cash flow amber with ink text and networking violet", () => {
    expect(categoryStyle("Cash Flow").badge).toBe("bg-amber text-ink");
    expect(categoryStyle("Networking").badge).toContain("bg-violet");
  });

  it("ignores case and spaces around the name", () => {
    expect(categoryStyle(" cash flow ")).toEqual(categoryStyle("Cash Flow"));
  });

  it("greys out everything else, including no category", () => {
    expect(categoryStyle("Funding").badge).toContain("bg-slate");
    expect(categoryStyle(null).badge).toContain("bg-slate");
    expect(categoryStyle(undefined).placeholder).toContain("from-slate");
  });
});
