import type { SqlQueryable } from "../db/sql-executor.ts";
import { ValidationError } from "../errors.ts";
import { subscriberTagSlugPattern, type SubscriberTagSource, type SubscriberTagUse } from "./subscriber-tags.schema.ts";

/**
 * The owner's labels on people (issue 42 point 4), a namespace apart from post tags. A tag is made
 * the first time it is set; an assignment keeps when and why it was first set (setting it again
 * changes nothing, so "downloaded the deck" stays the first download's date).
 */
export async function setSubscriberTags(
  db: SqlQueryable,
  subscriberIds: readonly number[],
  slugs: readonly string[],
  why: { source: SubscriberTagSource; detail: string; at: Date },
): Promise<void> {
  const clean = [...new Set(slugs.map(subscriberTagSlug))];
  if (subscriberIds.length === 0 || clean.length === 0) return;
  await db.query("INSERT INTO subscriber_tags (slug, created_at) SELECT unnest($1::text[]), $2 ON CONFLICT (slug) DO NOTHING", [clean, why.at]);
  await db.query(
    `INSERT INTO subscriber_tag_assignments (subscriber_id, subscriber_tag_id, source, detail, created_at)
     SELECT s.id, t.id, $3, $4, $5
       FROM subscribers s CROSS JOIN subscriber_tags t
      WHERE s.id = ANY($1::int[]) AND t.slug = ANY($2::text[])
     ON CONFLICT (subscriber_id, subscriber_tag_id) DO NOTHING`,
    [subscriberIds, clean, why.source, why.detail.slice(0, 200), why.at],
  );
}

/** Takes tags off people; a tag nobody carries any more stays (a saved segment may name it). */
export async function removeSubscriberTags(db: SqlQueryable, subscriberIds: readonly number[], slugs: readonly string[]): Promise<void> {
  const clean = [...new Set(slugs.map(subscriberTagSlug))];
  if (subscriberIds.length === 0 || clean.length === 0) return;
  await db.query(
    `DELETE FROM subscriber_tag_assignments
      WHERE subscriber_id = ANY($1::int[]) AND subscriber_tag_id IN (SELECT id FROM subscriber_tags WHERE slug = ANY($2::text[]))`,
    [subscriberIds, clean],
  );
}

/** Every subscriber tag there is, by slug, with how many people carry it. */
export async function listSubscriberTags(db: SqlQueryable): Promise<{ tag: string; people: number }[]> {
  const { rows } = await db.query<{ slug: string; people: number }>(
    `SELECT t.slug, count(a.subscriber_id)::int AS people FROM subscriber_tags t
       LEFT JOIN subscriber_tag_assignments a ON a.subscriber_tag_id = t.id GROUP BY t.slug ORDER BY t.slug`,
  );
  return rows.map((row) => ({ tag: row.slug, people: Number(row.people) }));
}

/** Each person's tags, with when and why each was set, oldest first. */
export async function subscriberTagsOf(db: SqlQueryable, subscriberIds: readonly number[]): Promise<Map<number, SubscriberTagUse[]>> {
  const tags = new Map<number, SubscriberTagUse[]>();
  if (subscriberIds.length === 0) return tags;
  const { rows } = await db.query<{ subscriber_id: number; slug: string; source: SubscriberTagSource; detail: string; created_at: Date | string }>(
    `SELECT a.subscriber_id, t.slug, a.source, a.detail, a.created_at
       FROM subscriber_tag_assignments a JOIN subscriber_tags t ON t.id = a.subscriber_tag_id
      WHERE a.subscriber_id = ANY($1::int[])
      ORDER BY a.created_at, t.slug`,
    [subscriberIds],
  );
  for (const row of rows) {
    const list = tags.get(row.subscriber_id) ?? [];
    list.push({ tag: row.slug, source: row.source, detail: row.detail, setAt: new Date(row.created_at).toISOString() });
    tags.set(row.subscriber_id, list);
  }
  return tags;
}

/** A tag as written (any case, spaces as hyphens) → its slug; 400 for one that cannot be a slug. */
export function subscriberTagSlug(text: string): string {
  const slug = text.trim().toLowerCase().replace(/\s+/g, "-");
  if (!subscriberTagSlugPattern.test(slug) || slug.length > 80)
    throw new ValidationError(
      `'${text}' is not a subscriber tag: lower-case letters and digits, joined by single ':', '.', '_' or '-' (at most 80 characters)`,
    );
  return slug;
}

/** A comma-separated list of tags (the import's `tags` field) → slugs; empty for none. */
export function subscriberTagList(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map(subscriberTagSlug);
}

/** Text as one part of a tag: lower-case letters and digits joined by single hyphens ("Pitch deck!" → "pitch-deck"). */
export function tagPart(text: string, max = 60): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, max)
    .replace(/^-+|-+$/g, "");
}

/** The tag a resource's download sets: `downloaded:<the resource's title as a slug>` (`downloaded:resource-<id>` for a title with no letters). */
export function downloadTag(resource: { id: number; title: string }): string {
  return `downloaded:${tagPart(resource.title) || `resource-${String(resource.id)}`}`;
}

/** The page a signup came from → `signup:<where>` ("/" → `signup:home`, "/blog/runway-math/" → `signup:blog.runway-math`). */
export function signupTag(path: string | null): string {
  const where = (path ?? "")
    .split(/[?#]/)[0]
    ?.split("/")
    .map((part) => tagPart(part))
    .filter((part) => part !== "")
    .join(".")
    .slice(0, 72)
    .replace(/[-.]+$/, "");
  return `signup:${where || "home"}`;
}
