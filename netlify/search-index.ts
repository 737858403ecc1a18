/**
 * The site search index, written by Pagefind into `<site>/pagefind/` from the built pages, after
 * `astro build` (`netlify/build.ts` on Netlify, `netlify/local/site-builder.ts` under `npm start`).
 * It reads only what the build wrote, so a draft or a scheduled post can never be found before its
 * page is public (docs/decisions/0034-search-with-pagefind.md).
 *
 * - Posts: each post page marks its article `data-pagefind-body` (title, excerpt, category, body);
 *   Pagefind indexes only pages that carry it.
 * - Resources: one record each, read from the built `/downloads` page (`data-search-resource`
 *   cards: title and description), linking to the card.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "node-html-parser";
import * as pagefind from "pagefind";

export interface SearchIndexResult {
  /** Searchable records: the post pages and the resources. */
  records: number;
  resources: number;
  ms: number;
}

export interface ResourceRecord {
  url: string;
  content: string;
  language: string;
  meta: Record<string, string>;
}

/** The resources of the built `/downloads` page as search records. */
export function resourceRecords(downloadsHtml: string): ResourceRecord[] {
  const root = parse(downloadsHtml);
  return root.querySelectorAll("[data-search-resource]").map((card) => {
    const title = card.querySelector("[data-search-title]")?.text.trim() ?? "";
    const description = card.querySelector("[data-search-description]")?.text.trim() ?? "";
    const anchor = card.getAttribute("id");
    return {
      url: anchor ? `/downloads#${anchor}` : "/downloads",
      content: `${title}. ${description}`,
      language: "en",
      meta: { title, kind: "Resource" },
    };
  });
}

/** Indexes the built site in `siteDir` and writes the index to `siteDir/pagefind/`. */
export async function buildSearchIndex(siteDir: string): Promise<SearchIndexResult> {
  const started = performance.now();
  const { index, errors } = await pagefind.createIndex({ forceLanguage: "en" });
  if (!index) throw new Error(`Pagefind could not start: ${errors.join("; ")}`);
  try {
    const pages = await index.addDirectory({ path: siteDir });
    if (pages.errors.length > 0) throw new Error(`Pagefind could not index ${siteDir}: ${pages.errors.join("; ")}`);
    const downloadsHtml = await readFile(path.join(siteDir, "downloads", "index.html"), "utf8").catch(() => "");
    const resources = resourceRecords(downloadsHtml);
    for (const record of resources) {
      const added = await index.addCustomRecord(record);
      if (added.errors.length > 0) throw new Error(`Pagefind could not index ${record.url}: ${added.errors.join("; ")}`);
    }
    const outputPath = path.join(siteDir, "pagefind");
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length > 0) throw new Error(`Pagefind could not write its index: ${written.errors.join("; ")}`);
    // One fragment file per record (at this size: Pagefind bundles them past `maxFragments`); none
    // at all for a site with nothing to find yet.
    const records = (await readdir(path.join(outputPath, "fragment")).catch(() => [])).length;
    return { records, resources: resources.length, ms: Math.round(performance.now() - started) };
  } finally {
    await pagefind.close();
  }
}
