import type { SqlQueryable } from "../db/sql-executor.ts";
import { firstFreeSlug, slugFromTitle } from "./post-slug-rules.ts";

/** The slugs among `candidates` that a tag (not `exceptId`) holds now. */
export async function takenTagSlugs(db: SqlQueryable, candidates: string[], exceptId: number | null = null): Promise<Set<string>> {
  const { rows } = await db.query<{ slug: string }>("SELECT slug FROM tags WHERE slug = ANY($1::text[]) AND id IS DISTINCT FROM $2", [
    candidates,
    exceptId,
  ]);
  return new Set(rows.map((row) => row.slug));
}

/** The first free slug a tag's name suggests. */
export const freeTagSlug = (db: SqlQueryable, name: string, exceptId: number | null = null): Promise<string> =>
  firstFreeSlug(slugFromTitle(name), (candidates) => takenTagSlugs(db, candidates, exceptId));

async function findTag(db: SqlQueryable, entry: string): Promise<number | undefined> {
  // A slug wins over a name; then a name in any case; then a slug the tag had before a rename.
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM (
       SELECT id, 1 AS rank FROM tags WHERE slug = $1
       UNION ALL SELECT id, 2 FROM tags WHERE lower(name) = lower($1)
       UNION ALL SELECT tag_id, 3 FROM tag_slug_redirects WHERE old_slug = $1
     ) found ORDER BY rank LIMIT 1`,
    [entry],
  );
  return rows[0]?.id;
}

/**
 * The tags the entries name (a slug, a name, or a former slug), in order; an entry no tag answers
 * to becomes a new tag with that name and the first free slug it suggests. Safe beside another
 * save making the same tag: the unique indexes decide, and the loser reads the winner's tag.
 */
export async function resolveTags(db: SqlQueryable, entries: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const entry of entries) {
    let id = await findTag(db, entry);
    for (let attempt = 0; id === undefined && attempt < 3; attempt += 1) {
      const slug = await freeTagSlug(db, entry);
      const { rows } = await db.query<{ id: number }>("INSERT INTO tags (slug, name) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING id", [
        slug,
        entry,
      ]);
      id = rows[0]?.id ?? (await findTag(db, entry));
    }
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Gives a post exactly these tags, in this order (the post form's, an import's). Run it in the caller's transaction. */
export async function setPostTags(db: SqlQueryable, postId: number, entries: readonly string[]): Promise<void> {
  const ids = await resolveTags(db, entries);
  await db.query("DELETE FROM post_tags WHERE post_id = $1 AND NOT (tag_id = ANY($2::int[]))", [postId, ids]);
  if (ids.length === 0) return;
  await db.query(
    `INSERT INTO post_tags (post_id, tag_id, position)
     SELECT $1, tag_id, position::smallint - 1 FROM unnest($2::int[]) WITH ORDINALITY AS given (tag_id, position)
     ON CONFLICT (post_id, tag_id) DO UPDATE SET position = EXCLUDED.position`,
    [postId, ids],
  );
}

/** Each post's tag slugs, in the order they were given. */
export async function postTagSlugs(db: SqlQueryable, postIds: readonly number[]): Promise<Map<number, string[]>> {
  const tags = new Map<number, string[]>(postIds.map((id) => [id, []]));
  if (postIds.length === 0) return tags;
  const { rows } = await db.query<{ post_id: number; slug: string }>(
    `SELECT pt.post_id, t.slug FROM post_tags pt JOIN tags t ON t.id = pt.tag_id
     WHERE pt.post_id = ANY($1::int[]) ORDER BY pt.post_id, pt.position, t.slug`,
    [[...postIds]],
  );
  for (const row of rows) tags.get(row.post_id)?.push(row.slug);
  return tags;
}
