import { z } from "zod";
import { altTextField, decorativeField, missingAlt } from "../shared/image-alt.schema.ts";
import { imageFocusField, imageFocusSchema } from "../shared/image-focus.schema.ts";
import { postTagsField } from "./tag.schema.ts";
import { slugSchema } from "./post-slug-rules.ts";

/** The blog categories the form offers (SPEC §3); the database holds the same list in a CHECK. */
export const postCategories = ["Entrepreneurship", "Cash Flow", "Networking", "Mindset", "Funding"] as const;

export type PostCategory = (typeof postCategories)[number];

/** Posts on one list page of the blog (`src/lib/blog-pages.ts`); the stats know a list page by it. */
export const postsPerListPage = 12;

export const defaultReadTime = 5;
export const minReadTime = 1;
export const maxReadTime = 60;

const readTimeMessage = `Read time must be between ${minReadTime} and ${maxReadTime} minutes`;

/** Longest email subject a post may set (the title's limit: an inbox shows far less). */
export const maxEmailSubject = 200;

const sendAsNewsletterMessage = "sendAsNewsletter must be true or false";
/** The featured image's alt text is required with a new image, unless it is marked decorative. */
export const featuredImageAltMessage = "Describe the featured image (alt text), or mark it decorative";

/** Values a checkbox or a form field sends for "yes". */
const trueValues = new Set(["true", "on", "1"]);

/**
 * The post form, as the admin form fills it and as the server reads the multipart body. Text
 * fields arrive as strings; the transforms turn them into what the service stores.
 */
export const postFormSchema = z
  .object({
    title: z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(200, "Title must be 200 characters or less"),
    // Emptiness after sanitizing is checked by the service (markup alone is not content).
    content: z.string({ error: "Content is required" }).trim().min(1, "Content is required"),
    excerpt: z
      .string()
      .trim()
      .max(500, "Excerpt must be 500 characters or less")
      .optional()
      .transform((value) => value || null),
    // The newsletter's subject line when it should differ from the title; empty: the title. Absent
    // (a client that does not know the field, as SPEC's): the title for a new post, unchanged for
    // an edit. One line: a pasted line break becomes a space.
    emailSubject: z
      .string({ error: "Email subject must be text" })
      .transform((value) => value.replace(/\s+/g, " ").trim())
      .pipe(z.string().max(maxEmailSubject, `Email subject must be ${String(maxEmailSubject)} characters or less`))
      .optional()
      .transform((value) => (value === undefined ? undefined : value || null)),
    category: z
      .union([z.enum(postCategories), z.literal("")], { error: `Category must be one of: ${postCategories.join(", ")}` })
      .optional()
      .transform((value): PostCategory | null => value || null),
    // SPEC §5: non-numeric falls back to 5; a number outside 1–60 is refused, not clamped.
    readTime: z
      .union([z.string(), z.number()])
      .optional()
      .transform((value) => {
        const text = String(value ?? "").trim();
        const number = text === "" ? Number.NaN : Number(text);
        return Number.isFinite(number) ? Math.round(number) : defaultReadTime;
      })
      .pipe(z.number().min(minReadTime, readTimeMessage).max(maxReadTime, readTimeMessage)),
    published: z
      .union([z.string(), z.boolean()])
      .optional()
      .transform((value) => value === true || (typeof value === "string" && trueValues.has(value))),
    featuredImage: z.instanceof(File, { error: "Featured image must be an image file" }).optional(),
    // Without a new image: given, they replace the stored alt; left out, it is kept.
    featuredImageAlt: altTextField,
    featuredImageDecorative: decorativeField,
    // The cover's focal point, "x,y" in percent (issue 41 point 5); "" the middle. Left out: kept,
    // unless a new image comes without one (a new picture's subject is elsewhere): then the middle.
    featuredImageFocus: imageFocusField,
    // Empty: a slug from the title (a new post), or the current one (an edit).
    slug: z
      .union([z.literal(""), slugSchema])
      .optional()
      .transform((value) => value || null),
    // "Email to subscribers when published" (issue 31): `true` or `false`. Absent: false for a new
    // post, unchanged for an edit.
    sendAsNewsletter: z
      .union([z.boolean(), z.string()], { error: sendAsNewsletterMessage })
      .optional()
      .refine((value) => value === undefined || typeof value === "boolean" || value === "true" || value === "false", sendAsNewsletterMessage)
      .transform((value) => (value === undefined ? undefined : value === true || value === "true")),
    // Comments closed on this post (issue 44): `true` or `false`. Absent: open for a new post, unchanged for an edit.
    commentsClosed: z
      .union([z.boolean(), z.string()], { error: "commentsClosed must be true or false" })
      .optional()
      .refine(
        (value) => value === undefined || typeof value === "boolean" || value === "true" || value === "false" || value === "on",
        "commentsClosed must be true or false",
      )
      .transform((value) => (value === undefined ? undefined : value === true || value === "true" || value === "on")),
    // Free-form tags (issue 42): comma-separated slugs or names; a new name makes a new tag. Absent:
    // none for a new post, unchanged for an edit.
    tags: postTagsField,
    // An instant (the browser turns the owner's local date and time into one); empty: not scheduled.
    // Only read when `published` is false: publishing now wins.
    publishAt: z
      .union([z.literal(""), z.iso.datetime({ offset: true, error: "Publish at must be a valid date and time" })])
      .optional()
      .transform((value) => (value ? new Date(value) : null)),
  })
  .superRefine((form, context) => {
    if (form.featuredImage && missingAlt(form.featuredImageAlt, form.featuredImageDecorative)) {
      context.addIssue({ code: "custom", path: ["featuredImageAlt"], message: featuredImageAltMessage });
    }
  });

/** What the admin form fills in. */
export type PostFormInput = z.input<typeof postFormSchema>;
/** What the service is given once the form is read (the alt fields may be left out: see `featuredImageAlt`). */
export type PostForm = Omit<z.output<typeof postFormSchema>, "featuredImageAlt" | "featuredImageDecorative"> & {
  featuredImageAlt?: string | undefined;
  featuredImageDecorative?: boolean | undefined;
};

/** A post as the API answers it and the pages render it (dates as ISO strings). */
/** A post's reactions from the fediverse (issue 45; counted by src/core/fediverse). */
export const fediverseCountsSchema = z
  .object({
    likes: z.number().int(),
    boosts: z.number().int(),
    replies: z.number().int().meta({ description: "Replies from the fediverse (as comments, whatever their moderation state)" }),
  })
  .meta({ description: "Likes, boosts and replies from the fediverse" });
export type FediverseCounts = z.output<typeof fediverseCountsSchema>;

export const postSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string().meta({ description: "Sanitized HTML" }),
  excerpt: z.string().nullable(),
  emailSubject: z.string().nullable().meta({ description: "The newsletter's subject line; null: the title (the default)" }),
  category: z.enum(postCategories).nullable(),
  readTime: z.number().int(),
  published: z.boolean(),
  publishedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  featuredImage: z.string().nullable().meta({ description: "`/api/files/images/…`, or null when the post has none" }),
  featuredImageAlt: z
    .string()
    .nullable()
    .meta({ description: 'The featured image\'s alt text; `""` when marked decorative; null when not described yet (or no image)' }),
  featuredImageFocus: imageFocusSchema,
  slug: z.string().meta({ description: "Unique; the post's page is `/blog/{slug}`" }),
  url: z.string().meta({ description: "The post's page, `/blog/{slug}` (`/blog/{id}` redirects there)" }),
  publishAt: z.iso.datetime().nullable().meta({ description: "When a scheduled draft goes live; null when not scheduled (or already published)" }),
  tags: z.array(z.string()).meta({ description: "The post's tags by slug, in the owner's order; each lists it at `/blog/tag/{slug}`" }),
  sendAsNewsletter: z.boolean().meta({
    description:
      "Email to subscribers when published: once the post is published (now or at its `publishAt`) it is sent as the newsletter, when its page is live (at most once)",
  }),
  commentsClosed: z.boolean().meta({ description: "No new comments on this post (its approved ones still show)" }),
  commentCount: z.number().int().meta({ description: "Its comments anyone may see (approved, of readers not banned)" }),
  fediverse: fediverseCountsSchema,
});

export type Post = z.output<typeof postSchema>;

/** An image for the editor (`POST /api/blog-posts/upload-image`). */
export const postImageUploadSchema = z.object({
  image: z.instanceof(File, { error: "Please select an image to upload." }),
});

export const postImageSchema = z.object({ imageUrl: z.string() });
