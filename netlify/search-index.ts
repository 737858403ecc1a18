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
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
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

/** The built pages Pagefind indexes: those whose article carries `data-pagefind-body` (the posts). */
async function searchablePages(siteDir: string): Promise<string[]> {
  const files = (await readdir(siteDir, { recursive: true })).filter((file) => file.endsWith(".html") && !file.startsWith("pagefind")).sort();
  const pages: string[] = [];
  for (const file of files) {
    if ((await readFile(path.join(siteDir, file), "utf8")).includes("data-pagefind-body")) pages.push(file);
  }
  return pages;
}

/** How many posts one index holds (`SEARCH_SHARD_POSTS`, default 5,000): Pagefind's memory grows with an index. */
export function searchShardPosts(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.SEARCH_SHARD_POSTS);
  return Number.isInteger(value) && value > 0 ? value : 5000;
}

/**
 * Indexes the built site in `siteDir` and writes the index to `siteDir/pagefind/`. Past
 * `shardPosts` posts the posts go into several indexes, one Pagefind process after another
 * (`/pagefind/` then `/pagefind-shard-1/`…), which the dialog merges: one index of 10,000 posts took
 * Pagefind 4.1 GB (docs/decisions/0089-incremental-site-build.md).
 */
export async function buildSearchIndex(siteDir: string, shardPosts = searchShardPosts()): Promise<SearchIndexResult> {
  const started = performance.now();
  const pages = await searchablePages(siteDir);
  const downloadsHtml = await readFile(path.join(siteDir, "downloads", "index.html"), "utf8").catch(() => "");
  const resources = resourceRecords(downloadsHtml);
  const shards: string[] = [];
  let records = 0;
  const count = Math.max(1, Math.ceil(pages.length / shardPosts));
  for (let shard = 0; shard < count; shard++) {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: "en" });
    if (!index) throw new Error(`Pagefind could not start: ${errors.join("; ")}`);
    try {
      for (const sourcePath of pages.slice(shard * shardPosts, (shard + 1) * shardPosts)) {
        const added = await index.addHTMLFile({ sourcePath, content: await readFile(path.join(siteDir, sourcePath), "utf8") });
        if (added.errors.length > 0) throw new Error(`Pagefind could not index ${sourcePath}: ${added.errors.join("; ")}`);
      }
      if (shard === 0) {
        for (const record of resources) {
          const added = await index.addCustomRecord(record);
          if (added.errors.length > 0) throw new Error(`Pagefind could not index ${record.url}: ${added.errors.join("; ")}`);
        }
      }
      const name = shard === 0 ? "pagefind" : `pagefind-shard-${String(shard)}`;
      const outputPath = path.join(siteDir, name);
      const written = await index.writeFiles({ outputPath });
      if (written.errors.length > 0) throw new Error(`Pagefind could not write its index: ${written.errors.join("; ")}`);
      if (shard > 0) shards.push(`/${name}/`);
      // One fragment file per record (at this size: Pagefind bundles them past `maxFragments`); none
      // at all for a site with nothing to find yet.
      records += (await readdir(path.join(outputPath, "fragment")).catch(() => [])).length;
    } finally {
      await pagefind.close();
    }
  }
  await writeDeltaList(siteDir, { shards, index: null, stale: [] });
  return { records, resources: resources.length, ms: Math.round(performance.now() - started) };
}

/**
 * What the search dialog merges into the full build's index (`/pagefind/delta.json`): the full build's
 * other shards, the index of the posts changed since the last full build, and the posts whose entry
 * in the full build's indexes is out of date (changed or removed). A full build writes no delta
 * (docs/decisions/0089-incremental-site-build.md).
 */
export interface SearchDelta {
  /** The full build's further indexes past the first (`/pagefind-shard-1/`…), when it has more posts than one holds. */
  shards: string[];
  index: string | null;
  stale: string[];
}

export const searchDeltaFile = path.join("pagefind", "delta.json");

async function writeDeltaList(siteDir: string, delta: SearchDelta): Promise<void> {
  const file = path.join(siteDir, searchDeltaFile);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(`${file}.next`, JSON.stringify(delta));
  await rename(`${file}.next`, file);
}

// A delta record says so (meta `delta`): the dialog drops a stale page's full-index result, not this one.
const markDelta = (html: string) => html.replace("data-pagefind-body", 'data-pagefind-body data-pagefind-meta="delta:1"');

/**
 * Indexes the built post pages `pages` (paths) of `siteDir` into a fresh small index,
 * `/pagefind-delta-<time>/`, and points `/pagefind/delta.json` at it; older delta indexes go. A page
 * in `incomingDir` (an incremental pass's output, not yet copied over the site) is read from there.
 */
export async function writeSearchDelta(siteDir: string, pages: string[], stale: string[], incomingDir?: string): Promise<void> {
  const previous = (await readdir(siteDir)).filter((name) => name.startsWith("pagefind-delta-"));
  const readPage = async (page: string) => {
    const file = path.join(page, "index.html");
    const incoming = incomingDir ? await readFile(path.join(incomingDir, file), "utf8").catch(() => undefined) : undefined;
    return incoming ?? (await readFile(path.join(siteDir, file), "utf8"));
  };
  let index: string | null = null;
  if (pages.length > 0) {
    const name = `pagefind-delta-${Date.now().toString(36)}`;
    const created = await pagefind.createIndex({ forceLanguage: "en" });
    if (!created.index) throw new Error(`Pagefind could not start: ${created.errors.join("; ")}`);
    try {
      for (const page of pages) {
        const added = await created.index.addHTMLFile({ url: page, content: markDelta(await readPage(page)) });
        if (added.errors.length > 0) throw new Error(`Pagefind could not index ${page}: ${added.errors.join("; ")}`);
      }
      const written = await created.index.writeFiles({ outputPath: path.join(siteDir, name) });
      if (written.errors.length > 0) throw new Error(`Pagefind could not write the delta index: ${written.errors.join("; ")}`);
    } finally {
      await pagefind.close();
    }
    index = `/${name}/`;
  }
  const current: Partial<SearchDelta> = await readFile(path.join(siteDir, searchDeltaFile), "utf8").then(
    (text) => JSON.parse(text) as Partial<SearchDelta>,
    () => ({}),
  );
  await writeDeltaList(siteDir, { shards: current.shards ?? [], index, stale });
  // A reader who opened the search a moment ago may still fetch from the previous delta.
  const old = previous.map((name) => path.join(siteDir, name));
  setTimeout(() => void Promise.all(old.map((dir) => rm(dir, { recursive: true, force: true }))), 30_000).unref();
}
