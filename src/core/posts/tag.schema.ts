import { z } from "zod";
import { slugSchema } from "./post-slug-rules.ts";

/** The longest tag name: a chip on a card, a heading on its list page. */
export const maxTagName = 60;
/** The longest description: one or two sentences a reader sees of a topic. */
export const maxTagDescription = 500;
/** The most tags one post carries: more is noise on a card, not a finer choice. */
export const maxTagsPerPost = 20;

const tagName = z
  .string({ error: "Name is required" })
  .transform((value) => value.replace(/\s+/g, " ").trim())
  .pipe(
    z
      .string()
      .min(1, "Name is required")
      .max(maxTagName, `Name must be ${String(maxTagName)} characters or less`)
      .refine((value) => !value.includes(","), "A tag's name may not contain a comma (the post form separates tags with commas)"),
  );

/**
 * A tag as the owner writes it (`POST /api/tags`, `PUT /api/tags/{slug}`). `slug` empty or left
 * out: made from the name (a new tag), or kept (an edit). `description` empty: none. `topic` left
 * out: false for a new tag, unchanged for an edit.
 */
export const tagFormSchema = z.object({
  name: tagName,
  slug: z
    .union([z.literal(""), slugSchema])
    .optional()
    .transform((value) => value || null)
    .meta({ description: "The tag's address, `/blog/tag/{slug}`; empty or absent: from the name (new) or kept (edit)" }),
  description: z
    .string({ error: "Description must be text" })
    .trim()
    .max(maxTagDescription, `Description must be ${String(maxTagDescription)} characters or less`)
    .nullable()
    .optional()
    .transform((value) => (value === undefined ? undefined : value || null)),
  topic: z.boolean({ error: "topic must be true or false" }).optional().meta({ description: "`true` marks a reader topic" }),
});

export type TagForm = z.output<typeof tagFormSchema>;
export type TagFormInput = z.input<typeof tagFormSchema>;

/** `/api/tags/{slug}`: a value that is no slug names no tag. */
export const tagSlugParams = z.object({
  slug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Tag not found")
    .max(80, "Tag not found"),
});

/** A tag as the API answers it and the pages list it. */
export const tagSchema = z.object({
  slug: z.string().meta({ description: "Unique; the tag's list is `/blog/tag/{slug}`" }),
  name: z.string(),
  description: z.string().nullable().meta({ description: "What the tag is about, for readers; null when none" }),
  topic: z.boolean().meta({ description: "A reader topic: readers may follow it" }),
  postCount: z.number().int().meta({ description: "Published posts carrying it" }),
});

export type Tag = z.output<typeof tagSchema>;

/**
 * The post form's `tags` field: comma-separated slugs or names (a name no tag has makes a new
 * tag). Left out: an edit keeps the post's tags; empty: none.
 */
export const postTagsField = z
  .string({ error: "Tags must be text, separated by commas" })
  .optional()
  .transform((value) =>
    value === undefined
      ? undefined
      : [
          ...new Map(
            value
              .split(",")
              .map((entry) => entry.replace(/\s+/g, " ").trim())
              .filter(Boolean)
              .map((entry) => [entry.toLowerCase(), entry]),
          ).values(),
        ],
  )
  .pipe(
    z
      .array(z.string().max(maxTagName, `A tag must be ${String(maxTagName)} characters or less`))
      .max(maxTagsPerPost, `A post may carry at most ${String(maxTagsPerPost)} tags`)
      .optional(),
  );
