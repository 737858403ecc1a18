import { describe, expect, it } from "vitest";
import { copyOrder } from "./incremental-build.ts";

describe("the order an incremental pass's files go live in", () => {
  it("puts the redirects first, then what pages refer to, then the pages", () => {
    const files = ["blog/retold/index.html", "index.html", "rss.xml", "share/retold-1a2b.png", "_astro/page.js", "_redirects", "sitemap-0.xml"];
    expect(copyOrder(files)).toEqual({
      redirects: ["_redirects"],
      assets: ["share/retold-1a2b.png", "_astro/page.js"],
      pages: ["blog/retold/index.html", "index.html", "rss.xml", "sitemap-0.xml"],
    });
  });
});
