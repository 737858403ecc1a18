import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * `<lastmod>` for the sitemap, from the built page itself: a post page states its last change in
 * `article:modified_time` (src/components/PageMetadata.astro), so the sitemap says what the page
 * says, read after the build wrote it. Other pages get none: a date that is not a real change
 * teaches crawlers to ignore it. docs/decisions/0075-feeds-and-metadata.md
 */
const modifiedTime = /<meta property="article:modified_time" content="([^"]+)"/;

/** The last change a built page at `url` states, or undefined. */
export async function pageLastModified(outDir: string, url: string): Promise<string | undefined> {
  const pathname = decodeURIComponent(new URL(url).pathname);
  const file = path.join(outDir, pathname, "index.html");
  if (!path.resolve(file).startsWith(path.resolve(outDir))) return undefined;
  const html = await readFile(file, "utf8").catch(() => undefined);
  const time = html === undefined ? undefined : modifiedTime.exec(html)?.[1];
  return time !== undefined && !Number.isNaN(Date.parse(time)) ? new Date(time).toISOString() : undefined;
}

/**
 * The sitemap integration's `serialize`: each page with its `lastmod` when it states one. The output
 * folder is asked for each page: one loaded config serves several builds in a long-lived build
 * process (netlify/local/build-worker.ts), each into its own folder.
 */
export const withLastModified =
  (outDir: () => string) =>
  async <T extends { url: string; lastmod?: string | undefined }>(item: T): Promise<T> => {
    const lastmod = await pageLastModified(outDir(), item.url);
    return lastmod ? { ...item, lastmod } : item;
  };
