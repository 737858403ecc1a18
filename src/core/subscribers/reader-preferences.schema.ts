import { z } from "zod";

/** How often a reader gets posts: each as it goes out, or one weekly digest. */
export const frequencies = ["each", "weekly"] as const;
export type Frequency = (typeof frequencies)[number];

export const frequencySchema = z.enum(frequencies, { error: 'frequency must be "each" or "weekly"' });

/** The most topics a reader's choice may name (the site has a handful; more is a malformed request). */
export const maxChosenTopics = 200;

const topicSlug = z
  .string({ error: "topics must be a list of topic slugs" })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "topics must be a list of topic slugs")
  .max(80, "topics must be a list of topic slugs");

/** A form's checkbox or radio ("true", "on") or JSON's boolean. */
const flag = z.union([
  z.boolean(),
  z
    .enum(["true", "on", "1", "false", "0", ""], { error: "everything must be true or false" })
    .transform((value) => ["true", "on", "1"].includes(value)),
]);

/**
 * The body of `POST /api/preferences` (JSON, or the page's form without JavaScript). `everything`
 * left out: false (an unticked box sends nothing). `topics`: a list of slugs; a form sends one field
 * per ticked box, or one comma-separated field. `frequency` is required.
 */
export const preferencesUpdateSchema = z.object({
  everything: flag.optional().transform((value) => value ?? false),
  topics: z
    .union([
      z.array(topicSlug),
      z
        .string()
        .transform((value) =>
          value
            .split(",")
            .map((slug) => slug.trim())
            .filter(Boolean),
        )
        .pipe(z.array(topicSlug)),
    ])
    .optional()
    .transform((value) => [...new Set(value ?? [])])
    .pipe(z.array(z.string()).max(maxChosenTopics, `At most ${String(maxChosenTopics)} topics`))
    .meta({ description: "The topics followed (slugs); with `everything` they are kept for later but every post comes" }),
  frequency: frequencySchema.meta({ description: '"each": every post as it goes out; "weekly": one digest a week' }),
});

export type PreferencesUpdate = z.output<typeof preferencesUpdateSchema>;
export type PreferencesUpdateInput = z.input<typeof preferencesUpdateSchema>;

/** What the page and `GET /api/preferences` show a reader. */
export const readerPreferencesSchema = z.object({
  email: z.string().meta({ description: "The reader's address, masked (j***@example.com)" }),
  frequency: frequencySchema,
  everything: z.boolean().meta({ description: "Follows everything: every post, whatever its topics" }),
  topics: z.array(
    z.object({
      slug: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      followed: z.boolean(),
    }),
  ),
});

export type ReaderPreferences = z.output<typeof readerPreferencesSchema>;

/** The token query of the preference calls and page; a missing or malformed one gets "not valid". */
export const preferencesQuerySchema = z.object({ token: z.string().max(512).optional() });
