import type { SqlQueryable } from "../db/sql-executor.ts";
import { ConflictError } from "../errors.ts";
import { firstFreeSlug, slugFromTitle } from "./post-slug-rules.ts";

export const slugTakenMessage = "This slug is already used by another post";

/** The `candidates` another post (not `exceptId`) holds as its slug now. */
async function takenSlugs(db: SqlQueryable, candidates: string[], exceptId: number | null): Promise<Set<string>> {
  const { rows } = await db.query<{ slug: string }>("SELECT slug FROM posts WHERE slug = ANY($1::text[]) AND id IS DISTINCT FROM $2", [
    candidates,
    exceptId,
  ]);
  return new Set(rows.map((row) => row.slug));
}

/**
 * The slug a save gives a post: the one the owner typed (refused with 409 when another post has
 * it), else the current one, else the first free one the title suggests.
 */
export async function slugToSave(
  db: SqlQueryable,
  post: { id: number | null; title: string; wanted: string | null; current: string | null },
): Promise<string> {
  if (post.wanted) {
    if ((await takenSlugs(db, [post.wanted], post.id)).size > 0) throw new ConflictError(slugTakenMessage);
    return post.wanted;
  }
  return post.current ?? firstFreeSlug(slugFromTitle(post.title), (candidates) => takenSlugs(db, candidates, post.id));
}

/**
 * Records a post's slug change: the old slug now redirects to the post, and the new one, if it
 * was anyone's old slug, stops redirecting (a live post wins over a redirect).
 */
export async function recordSlugChange(db: SqlQueryable, postId: number, from: string | null, to: string): Promise<void> {
  if (from === to) return;
  await db.query("DELETE FROM post_slug_redirects WHERE old_slug = $1", [to]);
  if (from) {
    await db.query(
      `INSERT INTO post_slug_redirects (old_slug, post_id) VALUES ($1, $2)
       ON CONFLICT (old_slug) DO UPDATE SET post_id = EXCLUDED.post_id, created_at = now()`,
      [from, postId],
    );
  }
}

/** A unique-slug race lost to a concurrent save answers 409 like any taken slug. */
export function asSlugConflict(error: unknown): unknown {
  const details = error as { code?: unknown; constraint?: unknown } | null;
  return details?.code === "23505" && details.constraint === "posts_slug_key" ? new ConflictError(slugTakenMessage) : error;
}

/** Where the public site sends an old address: each live post's id and former slugs, to its slug. */
export async function publishedPostRedirects(db: SqlQueryable): Promise<{ from: string; to: string }[]> {
  const { rows } = await db.query<{ from: string; to: string }>(
    `SELECT id::text AS "from", slug AS "to" FROM posts WHERE published
     UNION ALL
     SELECT r.old_slug, p.slug FROM post_slug_redirects r JOIN posts p ON p.id = r.post_id WHERE p.published
     ORDER BY 1`,
  );
  return rows;
}
