import { describe, expect, it } from "vitest";
import { parseRedirectsFile, redirectsFile } from "./post-redirects.ts";

describe("the _redirects file", () => {
  it("sends each old address of a post to its page, permanently, and page 1 to the list", () => {
    const text = redirectsFile([
      { from: "7", to: "cash-is-a-fact" },
      { from: "cash-is-king", to: "cash-is-a-fact" },
    ]);
    expect(text).toBe("/blog/page/1 /blog 301\n/blog/7 /blog/cash-is-a-fact 301\n/blog/cash-is-king /blog/cash-is-a-fact 301\n");
  });

  it("reads back as the local server answers it: the first rule for a path wins", () => {
    const rules = parseRedirectsFile(`${redirectsFile([{ from: "7", to: "new" }])}# a comment\n\n/blog/7 /elsewhere 302\n`);
    expect(rules.get("/blog/7")).toEqual({ to: "/blog/new", status: 301 });
    expect(rules.get("/blog/page/1")).toEqual({ to: "/blog", status: 301 });
    expect(rules.size).toBe(2);
  });

  it("sends a renamed tag's old list, each of its pages and its feeds to the new ones", () => {
    const text = redirectsFile([], [], [{ from: "pricing", to: "prices", postCount: 25 }]);
    const rules = parseRedirectsFile(text);
    expect(rules.get("/blog/tag/pricing")).toEqual({ to: "/blog/tag/prices", status: 301 });
    expect(rules.get("/blog/tag/pricing/rss.xml")).toEqual({ to: "/blog/tag/prices/rss.xml", status: 301 });
    expect(rules.get("/blog/tag/pricing/atom.xml")).toEqual({ to: "/blog/tag/prices/atom.xml", status: 301 });
    expect(rules.get("/blog/tag/pricing/feed.json")).toEqual({ to: "/blog/tag/prices/feed.json", status: 301 });
    expect(rules.get("/blog/tag/pricing/page/2")).toEqual({ to: "/blog/tag/prices/page/2", status: 301 });
    expect(rules.get("/blog/tag/pricing/page/3")).toEqual({ to: "/blog/tag/prices/page/3", status: 301 });
    expect(rules.has("/blog/tag/pricing/page/4")).toBe(false);
  });
});
