/**
 * Each page's last change as the page states it (`article:modified_time`), noted while the build
 * renders it, for the sitemap's `<lastmod>` (`netlify/sitemap.ts`): the sitemap says what the page
 * says without reading 10,000 pages back from the disk (decision 0099).
 *
 * Kept on `globalThis`: the pages render from Astro's bundle and the sitemap runs from the config,
 * two copies of this module in one process.
 */
const registryKey = Symbol.for("no-filter.page-last-modified");

function registry(): Map<string, string> {
  const scope = globalThis as { [registryKey]?: Map<string, string> };
  scope[registryKey] ??= new Map();
  return scope[registryKey];
}

/** A page's path as the sitemap names it: no trailing slash, `/` for the home page. */
export const pagePathKey = (pathname: string): string => pathname.replace(/\/+$/, "") || "/";

/** Notes the last change the page at `pathname` states, as it states it. */
export function notePageLastModified(pathname: string, modified: string): void {
  registry().set(pagePathKey(pathname), modified);
}

/** The changes noted since the last call, by page path, as ISO 8601 (a date that is not one is left out); the notes are cleared. */
export function takePagesLastModified(): Map<string, string> {
  const noted = new Map<string, string>();
  for (const [path, modified] of registry()) {
    const time = Date.parse(modified);
    if (!Number.isNaN(time)) noted.set(path, new Date(time).toISOString());
  }
  registry().clear();
  return noted;
}
