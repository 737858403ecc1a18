import type { SqlQueryable } from "../db/sql-executor.ts";
import { postPath } from "../posts/post-slug-rules.ts";

/**
 * The path an old address keeps in the `_redirects` file: its path only (the site moves to our
 * host), percent-encoded, without a trailing slash (the local server and Netlify match with or
 * without it). Null when there is nothing to redirect: the home page, or the post's page itself.
 */
export function oldPathOf(oldUrl: string, siteUrl: string | null, newSlug: string): string | null {
  let path: string;
  try {
    path = new URL(oldUrl, siteUrl ?? "http://old.invalid").pathname;
  } catch {
    return null;
  }
  path = path.replace(/\/+$/, "");
  if (path === "" || path === postPath(newSlug) || path.length > 1000 || /\s/.test(path)) return null;
  return path;
}

/** Records the old address of an imported post; one already taken (another import's) stays with its post. */
export async function recordImportRedirect(db: SqlQueryable, oldPath: string, postId: number): Promise<boolean> {
  const { rows } = await db.query("INSERT INTO import_redirects (old_path, post_id) VALUES ($1, $2) ON CONFLICT (old_path) DO NOTHING RETURNING 1", [
    oldPath,
    postId,
  ]);
  return rows.length > 0;
}

/** Old addresses of live imported posts, and the slug each now lives at (the build's `_redirects`). */
export async function publishedImportRedirects(db: SqlQueryable): Promise<{ from: string; to: string }[]> {
  const { rows } = await db.query<{ from: string; to: string }>(
    `SELECT r.old_path AS "from", p.slug AS "to" FROM import_redirects r JOIN posts p ON p.id = r.post_id WHERE p.published ORDER BY 1`,
  );
  return rows;
}
