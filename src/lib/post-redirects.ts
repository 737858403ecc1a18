import { postPath } from "../core/posts/post-slug-rules.ts";
import { feedFormats } from "../core/feeds/feeds.ts";
import { postsPerListPage } from "../core/posts/post.schema.ts";

/**
 * The site's `_redirects` file: permanent redirects from a post's id (SPEC's `/blog/{id}`) and its
 * former slugs to its page, from `/blog/page/1` to `/blog`, and from a renamed tag's old list (each
 * of its pages, its three feeds) to the new one. Netlify applies these only where no page exists, so a post
 * or tag that takes a slug back is served, not redirected.
 */
export function redirectsFile(
  postRedirects: readonly { from: string; to: string }[],
  importRedirects: readonly { from: string; to: string }[] = [],
  tagRedirects: readonly { from: string; to: string; postCount: number }[] = [],
): string {
  const lines = [
    "/blog/page/1 /blog 301",
    ...postRedirects.map(({ from, to }) => `${postPath(from)} ${postPath(to)} 301`),
    // An imported post's address on its old site (a path there) → its page here (src/core/imports/import-redirects.ts).
    ...importRedirects.map(({ from, to }) => `${from} ${postPath(to)} 301`),
    // Written out page by page, not as a splat, so the local server (exact paths) answers them as Netlify does.
    ...tagRedirects.flatMap(({ from, to, postCount }) => [
      `/blog/tag/${from} /blog/tag/${to} 301`,
      ...Object.values(feedFormats).map(({ file }) => `/blog/tag/${from}/${file} /blog/tag/${to}/${file} 301`),
      ...Array.from({ length: Math.ceil(postCount / postsPerListPage) - 1 }, (_, index) => {
        const page = String(index + 2);
        return `/blog/tag/${from}/page/${page} /blog/tag/${to}/page/${page} 301`;
      }),
    ]),
  ];
  return `${lines.join("\n")}\n`;
}

/** Reads a `_redirects` file as this site writes it: path → where it redirects, and the status. */
export function parseRedirectsFile(text: string): Map<string, { to: string; status: number }> {
  const rules = new Map<string, { to: string; status: number }>();
  for (const line of text.split("\n")) {
    const [from, to, status] = line.trim().split(/\s+/);
    if (!from || !to || from.startsWith("#")) continue;
    // Netlify matches the first rule for a path.
    if (!rules.has(from)) rules.set(from, { to, status: Number(status ?? 301) });
  }
  return rules;
}
