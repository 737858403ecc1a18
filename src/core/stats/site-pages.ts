import type { SqlQueryable } from "../db/sql-executor.ts";
import { postCategories, postsPerListPage } from "../posts/post.schema.ts";
import { slugFromTitle } from "../posts/post-slug-rules.ts";

/**
 * The site's pages that a page view may be counted for (docs/decisions/0054-numbers-no-one-can-fake.md):
 * the fixed pages of `src/pages/`, a published post (or an old address of one, which redirects to
 * it), and the list pages the published posts fill (the blog's, each category's and each tag's). Anything else — a made-up path, `/api/…`, a
 * preview (`/preview/…`) — is no page: its views are not counted. Known from the posts table at the
 * moment of the view, so a post counts from the second it is published.
 */
const fixedPages = new Set([
  "/",
  "/blog",
  "/blog/tags",
  "/downloads",
  "/privacy",
  "/subscribed",
  "/download-failed",
  "/download-failed/try-later",
  "/subscribe-failed",
  "/subscribe-failed/try-later",
  "/preferences-failed",
  "/preferences-failed/try-later",
  "/comment-failed",
  "/comment-failed/try-later",
]);

const categoryBySlug = new Map(postCategories.map((category) => [slugFromTitle(category), category]));

/** How long a page found to exist is taken as existing without asking again (a removed post stops counting after it). */
const rememberMs = 60_000;
const remembered = new WeakMap<SqlQueryable, Map<string, number>>();

async function publishedCount(db: SqlQueryable, category: string | null): Promise<number> {
  const { rows } = await db.query<{ posts: number }>(
    "SELECT count(*)::int AS posts FROM posts WHERE published AND ($1::text IS NULL OR category = $1)",
    [category],
  );
  return rows[0]?.posts ?? 0;
}

/** The published posts carrying the tag of this slug (a tag's list exists while one does: src/lib/blog-pages.ts). */
async function taggedCount(db: SqlQueryable, slug: string): Promise<number> {
  const { rows } = await db.query<{ posts: number }>(
    "SELECT count(*)::int AS posts FROM posts p JOIN post_tags pt ON pt.post_id = p.id JOIN tags t ON t.id = pt.tag_id WHERE p.published AND t.slug = $1",
    [slug],
  );
  return rows[0]?.posts ?? 0;
}

async function lookUp(db: SqlQueryable, path: string): Promise<boolean> {
  const tagList = /^\/blog\/tag\/([a-z0-9-]+)(?:\/page\/([1-9]\d{0,5}))?$/.exec(path);
  if (tagList?.[1]) {
    const posts = await taggedCount(db, tagList[1]);
    const page = tagList[2];
    return page === undefined ? posts > 0 : Number(page) >= 2 && Number(page) <= Math.ceil(posts / postsPerListPage);
  }
  const list = /^\/blog(?:\/category\/([a-z0-9-]+))?(?:\/page\/([1-9]\d{0,5}))?$/.exec(path);
  if (list) {
    const [, categorySlug, page] = list;
    const category = categorySlug === undefined ? null : categoryBySlug.get(categorySlug);
    if (category === undefined) return false;
    // Page 1 is the list itself (and a category's page exists while it is empty); `/page/1` is not built.
    if (page === undefined) return true;
    return Number(page) >= 2 && Number(page) <= Math.ceil((await publishedCount(db, category)) / postsPerListPage);
  }
  const post = /^\/blog\/([^/]+)$/.exec(path);
  if (!post?.[1]) return false;
  const { rows } = await db.query(
    `SELECT 1 FROM posts WHERE published AND slug = $1
     UNION ALL SELECT 1 FROM post_slug_redirects r JOIN posts p ON p.id = r.post_id WHERE p.published AND r.old_slug = $1
     LIMIT 1`,
    [post[1]],
  );
  return rows.length > 0;
}

/** Whether `path` (as `normalPath` gives it) is a page of the site now. */
export async function isSitePage(db: SqlQueryable, path: string, now: Date): Promise<boolean> {
  if (fixedPages.has(path)) return true;
  const known = remembered.get(db) ?? new Map<string, number>();
  remembered.set(db, known);
  const until = known.get(path);
  if (until !== undefined && until > now.getTime()) return true;
  const exists = await lookUp(db, path);
  if (exists) {
    if (known.size > 10_000) known.clear();
    known.set(path, now.getTime() + rememberMs);
  } else known.delete(path);
  return exists;
}
