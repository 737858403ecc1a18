import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { AstroIntegrationLogger } from "astro";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { notePageLastModified, takePagesLastModified } from "../src/lib/page-last-modified.ts";
import { sitemap, sitemapEntries, writeSitemaps } from "./sitemap.ts";

const site = new URL("https://example.com/");
const everything = () => true;
let outDir: string;

beforeEach(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), "sitemap-"));
  takePagesLastModified();
});
afterEach(() => rm(outDir, { recursive: true, force: true }));

const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);

describe("the sitemap's entries", () => {
  it("lists each page once under the site, in the order of numbers as people read them, without the error pages", () => {
    const pages = ["", "blog/page/10/", "blog/page/2/", "blog/a-post/", "404/", "500/", "blog/a-post/", "downloads/"];
    expect(sitemapEntries(pages, site, everything, new Map()).map((entry) => entry.url)).toEqual([
      "https://example.com/",
      "https://example.com/blog/a-post/",
      "https://example.com/blog/page/2/",
      "https://example.com/blog/page/10/",
      "https://example.com/downloads/",
    ]);
  });

  it("leaves out what the filter refuses and gives a page the last change it stated", () => {
    const entries = sitemapEntries(
      ["blog/a-post/", "thanks/", "downloads/"],
      site,
      (url) => !url.endsWith("/thanks/"),
      new Map([["/blog/a-post", "2026-04-05T06:07:08.000Z"]]),
    );
    expect(entries).toEqual([
      { url: "https://example.com/blog/a-post/", lastmod: "2026-04-05T06:07:08.000Z" },
      { url: "https://example.com/downloads/" },
    ]);
  });

  it("keeps a site under a base path", () => {
    expect(sitemapEntries(["blog/"], new URL("https://example.com/site/"), everything, new Map())).toEqual([
      { url: "https://example.com/site/blog/" },
    ]);
  });
});

describe("the sitemap's files", () => {
  it("splits the URLs into files of the limit, each named in the index with its latest change", async () => {
    const entries = [
      { url: "https://example.com/a/", lastmod: "2026-01-02T00:00:00.000Z" },
      { url: "https://example.com/b/", lastmod: "2026-03-04T00:00:00.000Z" },
      { url: "https://example.com/c/" },
      { url: "https://example.com/d/" },
      { url: "https://example.com/e/", lastmod: "2026-02-01T00:00:00.000Z" },
    ];
    await writeSitemaps(outDir, site, entries, 2);
    expect((await readdir(outDir)).sort()).toEqual(["sitemap-0.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-index.xml"]);
    const index = await readFile(path.join(outDir, "sitemap-index.xml"), "utf8");
    expect(index).toContain(
      "<sitemap><loc>https://example.com/sitemap-0.xml</loc><lastmod>2026-03-04T00:00:00.000Z</lastmod></sitemap>" +
        "<sitemap><loc>https://example.com/sitemap-1.xml</loc></sitemap>" +
        "<sitemap><loc>https://example.com/sitemap-2.xml</loc><lastmod>2026-02-01T00:00:00.000Z</lastmod></sitemap>",
    );
    const first = await readFile(path.join(outDir, "sitemap-0.xml"), "utf8");
    expect(first).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9"/);
    expect(first).toContain("<url><loc>https://example.com/a/</loc><lastmod>2026-01-02T00:00:00.000Z</lastmod></url>");
    expect(locations(await readFile(path.join(outDir, "sitemap-1.xml"), "utf8"))).toEqual(["https://example.com/c/", "https://example.com/d/"]);
  });
});

describe("the sitemap integration", () => {
  const logger = { warn: () => undefined } as unknown as AstroIntegrationLogger;
  type Hooks = Record<string, (options: unknown) => unknown>;

  it("writes the pages the build wrote, each post with the change its page noted while it rendered", async () => {
    const hooks = sitemap({ listed: (url) => !url.includes("/admin") }).hooks as Hooks;
    await hooks["astro:config:done"]?.({ config: { site: "https://example.com", base: "/" } });
    notePageLastModified("/blog/stale/", "2020-01-01T00:00:00.000Z");
    await hooks["astro:build:start"]?.({});
    notePageLastModified("/blog/a-post/", "2026-04-05T06:07:08Z");
    notePageLastModified("/blog/bad-date/", "not a date");
    await hooks["astro:build:done"]?.({
      dir: pathToFileURL(`${outDir}/`),
      pages: [{ pathname: "" }, { pathname: "blog/a-post/" }, { pathname: "blog/bad-date/" }, { pathname: "admin/" }, { pathname: "blog/stale/" }],
      logger,
    });
    const xml = await readFile(path.join(outDir, "sitemap-0.xml"), "utf8");
    expect(locations(xml)).toEqual([
      "https://example.com/",
      "https://example.com/blog/a-post/",
      "https://example.com/blog/bad-date/",
      "https://example.com/blog/stale/",
    ]);
    expect(xml).toContain("<loc>https://example.com/blog/a-post/</loc><lastmod>2026-04-05T06:07:08.000Z</lastmod>");
    // A note from before the build started, or a date that is not one, gives no <lastmod>.
    expect(xml).toContain("<url><loc>https://example.com/blog/stale/</loc></url>");
    expect(xml).toContain("<url><loc>https://example.com/blog/bad-date/</loc></url>");
    // The notes are spent: the next pass starts from none.
    expect(takePagesLastModified().size).toBe(0);
  });
});
