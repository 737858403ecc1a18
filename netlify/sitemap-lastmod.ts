import { open } from "node:fs/promises";
import path from "node:path";

/**
 * `<lastmod>` for the sitemap, from the built page itself: a post page states its last change in
 * `article:modified_time` (src/components/PageMetadata.astro), so the sitemap says what the page
 * says, read after the build wrote it. Other pages get none: a date that is not a real change
 * teaches crawlers to ignore it. docs/decisions/0075-feeds-and-metadata.md
 */
const modifiedTime = /<meta property="article:modified_time" content="([^"]+)"/;

/**
 * A built page's start, through `</head>`: 16 KB holds it (a post's is about 3 KB), and the rest
 * (about 30 KB a post) is not read, on every page of a build. A longer head reads the whole file.
 */
async function pageHead(file: string): Promise<string | undefined> {
  const handle = await open(file).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const start = Buffer.alloc(16_384);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    const text = start.toString("utf8", 0, bytesRead);
    return bytesRead < start.length || text.includes("</head>") ? text : await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/** The last change a built page at `url` states, or undefined. */
export async function pageLastModified(outDir: string, url: string): Promise<string | undefined> {
  const pathname = decodeURIComponent(new URL(url).pathname);
  const file = path.join(outDir, pathname, "index.html");
  if (!path.resolve(file).startsWith(path.resolve(outDir))) return undefined;
  const head = await pageHead(file);
  const time = head === undefined ? undefined : modifiedTime.exec(head)?.[1];
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
