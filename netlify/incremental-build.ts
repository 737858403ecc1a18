import { copyFile, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { deferredMarker } from "../src/adapters/page-keys.ts";
import { writeSearchDelta } from "./search-index.ts";
import { sitemapEntryLimit, sitemapOrder } from "./sitemap.ts";

/**
 * Applies an incremental build (a build rendering only the changed pages: `changedOnly` in src/lib/build-data.ts)
 * to the live site in place: its files copied over (each by a rename, so a reader never sees half a
 * file; a file with the same bytes is left alone), the pages that no longer exist removed, the
 * sitemaps merged, and the posts changed since the last full build indexed into a small search index
 * the dialog merges (docs/decisions/0089-incremental-site-build.md).
 */

/** The posts' pages changed or removed since the live full build: the search's delta. */
export interface LiveSearch {
  changed: Set<string>;
  removed: Set<string>;
}

export interface IncrementalBuild {
  liveDir: string;
  liveKeysDir: string;
  partialDir: string;
  partialKeysDir: string;
  search: LiveSearch;
}

type Keys = Record<string, string>;

async function readKeys(dir: string): Promise<Map<string, Keys>> {
  const families = new Map<string, Keys>();
  for (const name of await readdir(dir).catch(() => [])) {
    if (name.endsWith(".json")) families.set(name.slice(0, -5), JSON.parse(await readFile(path.join(dir, name), "utf8")) as Keys);
  }
  return families;
}

/** Where a page path's file lives in a build: `/blog/x` → `blog/x/index.html`, `/blog/tag/t/rss.xml` as is. */
export function pageFile(page: string): string {
  const relative = page.replace(/^\/+/, "");
  return path.extname(relative) === "" ? path.join(relative, "index.html") : relative;
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = path.join(prefix, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(dir, relative)));
    else files.push(relative);
  }
  return files;
}

async function sameFile(a: string, b: string): Promise<boolean> {
  const [first, second] = await Promise.all([stat(a), stat(b).catch(() => undefined)]);
  if (!second) return false;
  if (first.ino === second.ino && first.dev === second.dev) return true;
  if (first.size !== second.size) return false;
  return (await readFile(a)).equals(await readFile(b));
}

/** Copies `from` over `to` by a rename of a copy beside it. */
async function replaceFile(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  const temporary = `${to}.incoming-${String(process.pid)}`;
  await copyFile(from, temporary);
  await rename(temporary, to);
}

const sitemapUrl = /<url>[\s\S]*?<\/url>/g;
const locOf = (entry: string) => /<loc>([^<]*)<\/loc>/.exec(entry)?.[1] ?? "";
const pathOfLoc = (loc: string) => {
  try {
    return new URL(loc).pathname.replace(/\/$/, "") || "/";
  } catch {
    return loc;
  }
};

/** As a full build writes them (netlify/sitemap.ts): URLs in this order, at most this many a file. */
const byLoc = (a: string, b: string) => sitemapOrder(locOf(a), locOf(b));
const sitemapFile = /^sitemap-\d+\.xml$/;

/**
 * The live sitemaps with the incremental build's pages in them, as a full build writes them: an
 * entry of the partial sitemap replaces the live one for the same page, removed pages leave, and
 * the index (`sitemap-index.xml`, copied from the partial build) names each file.
 */
async function mergeSitemaps(liveDir: string, partialDir: string, removed: Set<string>): Promise<void> {
  const partialNames = (await readdir(partialDir)).filter((name) => sitemapFile.test(name));
  const liveNames = (await readdir(liveDir)).filter((name) => sitemapFile.test(name));
  if (partialNames.length === 0) return;
  const entries = new Map<string, string>();
  for (const name of liveNames) {
    for (const entry of (await readFile(path.join(liveDir, name), "utf8")).match(sitemapUrl) ?? []) entries.set(pathOfLoc(locOf(entry)), entry);
  }
  for (const page of removed) entries.delete(page);
  const first = await readFile(path.join(partialDir, partialNames[0] ?? ""), "utf8");
  for (const name of partialNames) {
    for (const entry of (await readFile(path.join(partialDir, name), "utf8")).match(sitemapUrl) ?? []) entries.set(pathOfLoc(locOf(entry)), entry);
  }
  const head = first.slice(0, first.indexOf("<url>"));
  const sorted = [...entries.values()].sort(byLoc);
  const files = Math.max(1, Math.ceil(sorted.length / sitemapEntryLimit));
  for (let index = 0; index < files; index++) {
    const file = path.join(partialDir, `sitemap-${String(index)}.xml`);
    await writeFile(file, `${head}${sorted.slice(index * sitemapEntryLimit, (index + 1) * sitemapEntryLimit).join("")}</urlset>`);
  }
  for (const name of liveNames) {
    if (Number(/\d+/.exec(name)?.[0]) >= files) await rm(path.join(liveDir, name), { force: true });
  }
  const indexFile = path.join(partialDir, "sitemap-index.xml");
  const index = await readFile(indexFile, "utf8").catch(() => undefined);
  const one = index ? /<sitemap>[\s\S]*?<\/sitemap>/.exec(index)?.[0] : undefined;
  if (index && one) {
    const all = Array.from({ length: files }, (_, number) => one.replace(/sitemap-\d+\.xml/, `sitemap-${String(number)}.xml`)).join("");
    await writeFile(indexFile, index.replace(/(<sitemap>[\s\S]*?<\/sitemap>)+/, all));
  }
}

/**
 * The order a pass's files go live in: the redirects first (a page that moved, a renamed tag's
 * list, answers 301 from its old address by the time its new one is served), then what pages
 * refer to (share images, bundles) and the search delta, then the pages, so no live page names a
 * file not yet there and no live post is missing from the search.
 */
export function copyOrder(files: string[]): { redirects: string[]; assets: string[]; pages: string[] } {
  const referred = (file: string) => file.startsWith("share/") || file.startsWith("_astro/");
  return {
    redirects: files.filter((file) => file === "_redirects"),
    assets: files.filter(referred),
    pages: files.filter((file) => file !== "_redirects" && !referred(file)),
  };
}

/** Applies the incremental build; returns the pages it rendered and the pages it removed. */
export async function applyIncrementalBuild(build: IncrementalBuild): Promise<{ pages: number; removed: number; deferred: number }> {
  const { liveDir, partialDir, search } = build;
  const [base, current] = await Promise.all([readKeys(build.liveKeysDir), readKeys(build.partialKeysDir)]);
  const removed = new Set<string>();
  let pages = 0;
  for (const [family, keys] of base) {
    const now = current.get(family) ?? {};
    for (const page of Object.keys(keys)) {
      if (page in now) continue;
      removed.add(page);
      if (family === "post") {
        search.changed.delete(page);
        search.removed.add(page);
      }
    }
  }
  for (const [family, keys] of current) {
    const before = base.get(family) ?? {};
    for (const [page, key] of Object.entries(keys)) {
      if (before[page] === key) continue;
      pages++;
      if (family === "post") {
        search.changed.add(page);
        search.removed.delete(page);
      }
    }
  }

  await mergeSitemaps(liveDir, partialDir, removed);
  const copy = async (file: string) => {
    const from = path.join(partialDir, file);
    const to = path.join(liveDir, file);
    if (!(await sameFile(from, to))) await replaceFile(from, to);
  };
  const files = (await listFiles(partialDir)).filter((file) => !file.includes(".incoming-"));
  const { redirects, assets, pages: pageFiles } = copyOrder(files);
  for (const file of [...redirects, ...assets]) await copy(file);
  // The search knows a page before the page is served: a reader who finds the post live finds it
  // in the search too (the pass's own pages are read from its folder, earlier passes' from the site).
  await writeSearchDelta(liveDir, [...search.changed], [...search.changed, ...search.removed], partialDir);
  for (const page of removed) {
    const file = path.join(liveDir, pageFile(page));
    await rm(file, { force: true });
    // The page's folder goes with it when nothing else is in it.
    if (path.basename(file) === "index.html") await rmdir(path.dirname(file)).catch(() => undefined);
  }
  for (const file of pageFiles) await copy(file);
  // A removed or retitled post's old share image, once no live page names it (the partial build
  // placed every live post's).
  const shared = new Set(await readdir(path.join(partialDir, "share")).catch(() => []));
  if (shared.size > 0) {
    for (const name of await readdir(path.join(liveDir, "share")).catch(() => [])) {
      if (!shared.has(name)) await rm(path.join(liveDir, "share", name), { force: true });
    }
  }
  // The keys now describe the live site: the next incremental build starts from them.
  await mkdir(build.liveKeysDir, { recursive: true });
  let deferred = 0;
  for (const name of await readdir(build.partialKeysDir)) {
    if (name === deferredMarker) {
      const counts = (await readFile(path.join(build.partialKeysDir, name), "utf8")).trim().split("\n");
      deferred = counts.reduce((sum, count) => sum + Number(count), 0);
    } else await replaceFile(path.join(build.partialKeysDir, name), path.join(build.liveKeysDir, name));
  }
  return { pages, removed: removed.size, deferred };
}
