import type { AstroIntegration } from "astro";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { SitemapAndIndexStream, SitemapStream } from "sitemap";
import { pagePathKey, takePagesLastModified } from "../src/lib/page-last-modified.ts";

/**
 * The sitemap (`sitemap-index.xml` naming `sitemap-0.xml`, …) of the pages a build wrote, each post
 * with the last change its page states as `<lastmod>`. It writes what `@astrojs/sitemap` wrote, byte
 * for byte, for a fraction of the CPU: that integration sorted with a `localeCompare` that builds a
 * collator on every call, and our `lastmod` read every page back from the disk (together 1.9 s of a
 * 10,000-post build's 17 s of user CPU; this one 0.24 s of the main thread; decision 0099).
 */

/** At most this many URLs a file, as `@astrojs/sitemap` splits them (the protocol allows 50,000). */
export const sitemapEntryLimit = 45_000;

const byLocation = new Intl.Collator("en", { numeric: true });
/** The order the files list URLs in, `@astrojs/sitemap`'s (`/blog/page/2/` before `/blog/page/10/`). */
export const sitemapOrder = (a: string, b: string): number => byLocation.compare(a, b);

export interface SitemapEntry {
  url: string;
  lastmod?: string;
}

/** Pages never listed: the answers for an error status. */
const statusPages = new Set(["/404", "/500"]);

/**
 * The entries for the pages a build wrote (Astro's `pathname`s, as `blog/a-post/`), absolute under
 * `site`, without the error pages and those `listed` refuses, each once, in the sitemap's order.
 */
export function sitemapEntries(
  pathnames: readonly string[],
  site: URL,
  listed: (url: string) => boolean,
  lastModified: ReadonlyMap<string, string>,
): SitemapEntry[] {
  const base = site.pathname.endsWith("/") ? site.pathname : `${site.pathname}/`;
  const entries = new Map<string, SitemapEntry>();
  for (const pathname of pathnames) {
    const relative = pathname.replace(/^\//, "");
    if (statusPages.has(pagePathKey(`/${relative}`))) continue;
    const location = new URL(base + relative, site);
    const url = location.href;
    if (entries.has(url) || !listed(url)) continue;
    const lastmod = lastModified.get(pagePathKey(location.pathname));
    entries.set(url, lastmod ? { url, lastmod } : { url });
  }
  return [...entries.values()].sort((a, b) => sitemapOrder(a.url, b.url));
}

/** The latest `lastmod` of a file's entries: the index's date for that file. */
function latest(entries: readonly SitemapEntry[]): string | undefined {
  let newest: string | undefined;
  for (const entry of entries) if (entry.lastmod && (!newest || entry.lastmod > newest)) newest = entry.lastmod;
  return newest;
}

/** Writes `sitemap-index.xml` and its files into `outDir`, `limit` URLs a file. */
export async function writeSitemaps(outDir: string, site: URL, entries: readonly SitemapEntry[], limit = sitemapEntryLimit): Promise<void> {
  const index = new SitemapAndIndexStream({
    limit,
    getSitemapStream: (number) => {
      const name = `sitemap-${String(number)}.xml`;
      const file = new SitemapStream({ hostname: site.href, xmlns: { news: true, xhtml: true, image: true, video: true } });
      const written = file.pipe(createWriteStream(path.join(outDir, name)));
      const lastmod = latest(entries.slice(number * limit, (number + 1) * limit));
      return [{ url: new URL(name, site).href, ...(lastmod && { lastmod }) }, file, written];
    },
  });
  await pipeline(Readable.from(entries), index, createWriteStream(path.join(outDir, "sitemap-index.xml")));
}

/** The integration: after the pages are written, their sitemap (`listed` filters by absolute URL). */
export function sitemap({ listed }: { listed: (url: string) => boolean }): AstroIntegration {
  let site: URL | undefined;
  return {
    name: "no-filter:sitemap",
    hooks: {
      "astro:config:done": ({ config }) => {
        site = config.site ? new URL(config.base, config.site) : undefined;
      },
      // A pass that failed halfway leaves no notes for the next (a long-lived build process, decision 0091).
      "astro:build:start": () => {
        takePagesLastModified();
      },
      "astro:build:done": async ({ dir, pages, logger }) => {
        const lastModified = takePagesLastModified();
        if (!site) return logger.warn("No `site` (SITE_URL): no sitemap.");
        const entries = sitemapEntries(
          pages.map((page) => page.pathname),
          site,
          listed,
          lastModified,
        );
        if (entries.length > 0) await writeSitemaps(fileURLToPath(dir), site, entries);
      },
    },
  };
}
