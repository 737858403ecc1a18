import type { z } from "zod";
import { downloadFormSchema } from "../downloads/download.schema.ts";
import { postFormSchema } from "../posts/post.schema.ts";
import { slugSchema } from "../posts/post-slug-rules.ts";
import { tagFormSchema } from "../posts/tag.schema.ts";
import { isEmptyPostHtml, sanitizePostHtml, type IsOwnImage } from "../posts/sanitize-post-html.ts";
import { sequenceStepInputSchema } from "../sequences/sequence.schema.ts";
import { settingKeySchema, settingValueSchema } from "../settings/settings.schema.ts";
import { emailSchema } from "../subscribers/subscriber.schema.ts";

/**
 * The checks a save makes, made again on every row a restore writes: an archive is a file from
 * outside (hand-edited, or made by someone else), and what it holds is rendered on the public pages
 * and sent by email. A row is cleaned as a save would clean it (post and step HTML through the
 * sanitizer), or refused with the reason (a title too long, a `javascript:` URL in a setting); a
 * refused row is reported and left out, never written raw.
 */
export type Row = Record<string, unknown>;

export type RowCheck = (row: Row, needs: { isOwnImage: IsOwnImage }) => Row | { refused: string };

/** A stored file's key as the site makes them (no folders, no `..`). */
const storedKey = (folder: "images" | "downloads") => new RegExp(`^${folder}/[A-Za-z0-9][A-Za-z0-9_.-]*$`);

class Refused extends Error {}

function field(schema: z.ZodType, value: unknown, name: string, nullable = false): unknown {
  if (nullable && (value === null || value === undefined)) return value ?? null;
  const result = schema.safeParse(value);
  if (!result.success) throw new Refused(`${name}: ${result.error.issues[0]?.message ?? "not valid"}`);
  return result.data;
}

function html(value: unknown, name: string, isOwnImage: IsOwnImage): string {
  if (typeof value !== "string") throw new Refused(`${name}: not text`);
  const clean = sanitizePostHtml(value, isOwnImage);
  if (isEmptyPostHtml(clean)) throw new Refused(`${name}: nothing left once cleaned`);
  return clean;
}

function key(value: unknown, name: string, folder: "images" | "downloads", nullable: boolean): unknown {
  if (nullable && (value === null || value === undefined)) return null;
  if (typeof value !== "string" || !storedKey(folder).test(value)) throw new Refused(`${name}: not a stored file's key`);
  return value;
}

const post = postFormSchema.shape;
const download = downloadFormSchema.shape;
const step = sequenceStepInputSchema.shape;
const tag = tagFormSchema.shape;

/** Each table whose rows reach a page or an email, with its check (the other tables hold ids, counts and dates). */
export const rowChecks: Readonly<Record<string, RowCheck>> = {
  posts: (row, { isOwnImage }) => ({
    ...row,
    title: field(post.title, row.title, "title"),
    content: html(row.content, "content", isOwnImage),
    excerpt: field(post.excerpt, row.excerpt ?? undefined, "excerpt"),
    ...("email_subject" in row && { email_subject: field(post.emailSubject, row.email_subject, "email_subject", true) }),
    ...("slug" in row && { slug: field(slugSchema, row.slug, "slug", true) }),
    featured_image_key: key(row.featured_image_key, "featured_image_key", "images", true),
  }),
  // A tag's name, slug and description show on every page that lists it.
  tags: (row) => ({
    ...row,
    name: field(tag.name, row.name, "name"),
    slug: field(slugSchema, row.slug, "slug"),
    description: field(tag.description, row.description, "description", true),
  }),
  downloads: (row) => ({
    ...row,
    title: field(download.title, row.title, "title"),
    description: field(download.description, row.description, "description"),
    category: field(download.category, row.category, "category"),
    file_key: key(row.file_key, "file_key", "downloads", false),
    thumbnail_key: key(row.thumbnail_key, "thumbnail_key", "images", true),
  }),
  sequence_steps: (row, { isOwnImage }) => ({
    ...row,
    subject: field(step.subject, row.subject, "subject"),
    html: html(row.html, "html", isOwnImage),
  }),
  site_settings: (row) => {
    const name = field(settingKeySchema, row.key, "key") as z.output<typeof settingKeySchema>;
    return { ...row, value: field(settingValueSchema(name), row.value, name) };
  },
  subscribers: (row) => ({ ...row, email: field(emailSchema, row.email, "email") }),
};

/** A row through its table's check: the row to write, or why it is left out. */
export function checkRow(table: string, row: Row, needs: { isOwnImage: IsOwnImage }): Row | { refused: string } {
  const check = rowChecks[table];
  if (!check) return row;
  try {
    return check(row, needs);
  } catch (error) {
    if (error instanceof Refused) return { refused: error.message };
    throw error;
  }
}
