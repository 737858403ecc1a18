import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { RequestRebuild } from "../publishing/rebuild.ts";
import type { Clock } from "../shared/clock.ts";
import { freeTagSlug, takenTagSlugs } from "./post-tags.ts";
import type { Tag, TagForm } from "./tag.schema.ts";

/** What tags need: the database, the clock, and a rebuild (tag pages are part of the site). */
export interface TagsDeps {
  db: SqlExecutor;
  now: Clock["now"];
  rebuild: RequestRebuild;
}

export const tagSlugTakenMessage = "This slug is already used by another tag";
export const tagNameTakenMessage = "A tag with this name already exists";
const tagNotFound = "Tag not found";

interface TagRow {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  topic: boolean;
  post_count: number | string;
}

const toTag = (row: TagRow): Tag => ({
  slug: row.slug,
  name: row.name,
  description: row.description,
  topic: row.topic,
  postCount: Number(row.post_count),
});

// Published posts only: a draft's tag shows nothing on the site yet.
const tagColumns = `t.id, t.slug, t.name, t.description, t.topic,
  (SELECT count(*) FROM post_tags pt JOIN posts p ON p.id = pt.post_id WHERE pt.tag_id = t.id AND p.published) AS post_count`;

/** Every tag by name, with how many published posts carry it. */
export async function listTags(deps: Pick<TagsDeps, "db">): Promise<Tag[]> {
  const { rows } = await deps.db.query<TagRow>(`SELECT ${tagColumns} FROM tags t ORDER BY lower(t.name), t.slug`);
  return rows.map(toTag);
}

async function tagBySlug(db: SqlQueryable, slug: string): Promise<Tag> {
  const { rows } = await db.query<TagRow>(`SELECT ${tagColumns} FROM tags t WHERE t.slug = $1`, [slug]);
  const row = rows[0];
  if (!row) throw new NotFoundError(tagNotFound);
  return toTag(row);
}

/** A unique index lost (a name or slug another tag has) answers 409, naming which. */
function asTagConflict(error: unknown): unknown {
  const details = error as { code?: unknown; constraint?: unknown } | null;
  if (details?.code !== "23505") return error;
  return new ConflictError(details.constraint === "tags_name_key" ? tagNameTakenMessage : tagSlugTakenMessage);
}

async function wantedSlugFree(db: SqlQueryable, slug: string, exceptId: number | null): Promise<void> {
  if ((await takenTagSlugs(db, [slug], exceptId)).size > 0) throw new ConflictError(tagSlugTakenMessage);
}

/** Records a tag's slug change: the old slug redirects to the tag; the new one, if it was anyone's old slug, stops redirecting. */
async function recordTagSlugChange(db: SqlQueryable, tagId: number, from: string, to: string): Promise<void> {
  if (from === to) return;
  await db.query("DELETE FROM tag_slug_redirects WHERE old_slug = $1", [to]);
  await db.query(
    `INSERT INTO tag_slug_redirects (old_slug, tag_id) VALUES ($1, $2)
     ON CONFLICT (old_slug) DO UPDATE SET tag_id = EXCLUDED.tag_id, created_at = now()`,
    [from, tagId],
  );
}

/** A new tag: its slug the owner's (409 when taken) or the first free one its name suggests. */
export async function createTag(deps: TagsDeps, form: TagForm): Promise<Tag> {
  const tag = await deps.db
    .transaction(async (tx) => {
      if (form.slug) await wantedSlugFree(tx, form.slug, null);
      const slug = form.slug ?? (await freeTagSlug(tx, form.name));
      await tx.query("DELETE FROM tag_slug_redirects WHERE old_slug = $1", [slug]);
      const now = deps.now();
      await tx.query("INSERT INTO tags (slug, name, description, topic, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)", [
        slug,
        form.name,
        form.description ?? null,
        form.topic ?? false,
        now,
      ]);
      return tagBySlug(tx, slug);
    })
    .catch((error: unknown) => {
      throw asTagConflict(error);
    });
  deps.rebuild();
  return tag;
}

/**
 * Changes a tag. A new slug leaves the old one redirecting (its list page answers 301 to the new
 * one); a field left out keeps its value.
 */
export async function updateTag(deps: TagsDeps, slug: string, form: TagForm): Promise<Tag> {
  const tag = await deps.db
    .transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number; slug: string }>("SELECT id, slug FROM tags WHERE slug = $1 FOR UPDATE", [slug]);
      const current = rows[0];
      if (!current) throw new NotFoundError(tagNotFound);
      const newSlug = form.slug ?? current.slug;
      if (newSlug !== current.slug) await wantedSlugFree(tx, newSlug, current.id);
      await tx.query(
        `UPDATE tags SET name = $2, slug = $3, description = CASE WHEN $4::boolean THEN $5::text ELSE description END,
           topic = COALESCE($6, topic), updated_at = $7
         WHERE id = $1`,
        [current.id, form.name, newSlug, form.description !== undefined, form.description ?? null, form.topic ?? null, deps.now()],
      );
      await recordTagSlugChange(tx, current.id, current.slug, newSlug);
      return tagBySlug(tx, newSlug);
    })
    .catch((error: unknown) => {
      throw asTagConflict(error);
    });
  deps.rebuild();
  return tag;
}

/** Deletes a tag: the posts that carried it stay, without it; its old addresses stop redirecting. */
export async function deleteTag(deps: TagsDeps, slug: string): Promise<void> {
  const { rows } = await deps.db.query("DELETE FROM tags WHERE slug = $1 RETURNING id", [slug]);
  if (rows.length === 0) throw new NotFoundError(tagNotFound);
  deps.rebuild();
}

/** Where the public site sends a tag's old address: each former slug to the tag's slug now. */
export async function tagRedirects(db: SqlQueryable): Promise<{ from: string; to: string }[]> {
  const { rows } = await db.query<{ from: string; to: string }>(
    `SELECT r.old_slug AS "from", t.slug AS "to" FROM tag_slug_redirects r JOIN tags t ON t.id = r.tag_id ORDER BY 1`,
  );
  return rows;
}
