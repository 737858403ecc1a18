import { describe, expect, it } from "vitest";
import { gmailClipBytes, gmailClipWarning, htmlBytes } from "./newsletter-size.ts";

describe("Gmail's 102 KB clip", () => {
  it("warns only above 102 × 1,024 bytes, naming the size", () => {
    expect(gmailClipBytes).toBe(104_448);
    expect(gmailClipWarning(0)).toBeNull();
    expect(gmailClipWarning(gmailClipBytes)).toBeNull();
    expect(gmailClipWarning(gmailClipBytes + 1)).toMatch(/^Gmail clips messages over 102 KB, and this email is 103 KB/);
    expect(gmailClipWarning(300 * 1024)).toContain("300 KB");
  });

  it("counts bytes, not characters: the HTML's UTF-8", () => {
    expect(htmlBytes("<p>a</p>")).toBe(8);
    expect(htmlBytes("é—")).toBe(5);
  });
});
