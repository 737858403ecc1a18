/**
 * Site search at the size the site has (1,000 posts in `npm run bench`): how long Pagefind takes to
 * index the built site and how big its index is, then, in Chromium, what a visitor's first search
 * costs: the bytes fetched from opening the search to the first results (gzip, as the CDN sends
 * them; Pagefind's own index files are stored compressed) and the time from the keystroke that
 * opens it to the first result on screen, the query typed as soon as the field has focus.
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { buildSearchIndex } from "../../netlify/search-index.ts";

export interface SearchFigures {
  records: number;
  indexMs: number;
  /** Everything Pagefind wrote but its unused UI files: what a search may fetch. */
  indexBytes: number;
  indexFiles: number;
  query: string;
  firstSearchBytes: number;
  firstSearchRequests: number;
  msToFirstResults: number;
}

const uiFile = /^pagefind-(component-|modular-)?ui\.(js|css)$|^pagefind-highlight\.js$/;

async function folderSize(folder: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || uiFile.test(entry.name)) continue;
    bytes += (await stat(path.join(entry.parentPath, entry.name))).size;
    files += 1;
  }
  return { bytes, files };
}

/** `siteDir` is the live build's folder (the index is written again, with the same content). */
export async function measureSearch(siteUrl: string, siteDir: string, chromePath: string, query = "runway"): Promise<SearchFigures> {
  const indexed = await buildSearchIndex(siteDir);
  const size = await folderSize(path.join(siteDir, "pagefind"));

  const browser = await chromium.launch({ executablePath: chromePath, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    await page.goto(new URL("/", siteUrl).href);
    await page.waitForLoadState("load");
    const sizes: Promise<number>[] = [];
    page.on("response", (response) => {
      sizes.push(
        response
          .body()
          .then((body) => gzipSync(body).byteLength)
          .catch(() => 0),
      );
    });
    const started = performance.now();
    await page.keyboard.press("/");
    // Typed as soon as the field has focus (a visitor's first key would go there).
    await page.waitForFunction(() => document.activeElement?.id === "search-input");
    await page.keyboard.type(query);
    await page.locator("dialog[data-search-dialog] [data-search-results] li").first().waitFor();
    const msToFirstResults = performance.now() - started;
    const bytes = (await Promise.all(sizes)).reduce((sum, one) => sum + one, 0);
    return {
      records: indexed.records,
      indexMs: indexed.ms,
      indexBytes: size.bytes,
      indexFiles: size.files,
      query,
      firstSearchBytes: bytes,
      firstSearchRequests: sizes.length,
      msToFirstResults: Math.round(msToFirstResults),
    };
  } finally {
    await browser.close();
  }
}
