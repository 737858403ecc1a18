import { z } from "zod";

/** The exports the dashboard can read. */
export const importSources = ["ghost", "wordpress", "substack", "medium"] as const;
export type ImportSource = (typeof importSources)[number];

const trueValues = new Set(["true", "on", "1"]);

/** `POST /api/imports`: the export, which kind it is, and whether to only report. */
export const importFormSchema = z
  .object({
    source: z.enum(importSources, { error: `Source must be one of: ${importSources.join(", ")}` }),
    file: z.instanceof(File, { error: "Please choose the export file" }).optional(),
    // A file over 4 MB arrives first in parts (`/api/uploads`); then its id stands for the file.
    uploadId: z.uuid("Upload not found").optional(),
    // A missing dryRun is a dry run: importing takes the owner's "yes" after reading the report.
    dryRun: z
      .union([z.string(), z.boolean()])
      .optional()
      .transform((value) => value === undefined || value === true || (typeof value === "string" && trueValues.has(value))),
    // Where relative image addresses point (Ghost writes `__GHOST_URL__`); optional.
    siteUrl: z
      .union([z.literal(""), z.url({ protocol: /^https?$/, error: "Old site address must start with http:// or https://" })])
      .optional()
      .transform((value) => value || null),
    // Substack's email list is imported only with the owner's word that these people agreed (as the CSV import asks).
    consent: z
      .union([z.string(), z.boolean()])
      .optional()
      .transform((value) => value === true || (typeof value === "string" && trueValues.has(value))),
  })
  .refine((form) => form.file ?? form.uploadId, { error: "Please choose the export file", path: ["file"] });

export type ImportForm = z.output<typeof importFormSchema>;
export type ImportFormInput = z.input<typeof importFormSchema>;

export const importWarningSchema = z.object({ post: z.string(), message: z.string() });
export type ImportWarning = z.output<typeof importWarningSchema>;

/** What became of one item of the export. */
export const importOutcomes = ["imported", "skipped", "failed"] as const;

/**
 * One item of the export and what the import does with it (a dry run: would do). Every item of
 * the export gets one: nothing is left out of the report without a reason.
 */
export const importItemSchema = z.object({
  /** What the export calls it: post, page, attachment, revision, menu item… */
  kind: z.string(),
  sourceId: z.string(),
  title: z.string(),
  outcome: z.enum(importOutcomes),
  /** Skipped: why; failed: the error. */
  reason: z.string().nullable(),
  /** The state the post will have here, and where it lives. */
  status: z.enum(["published", "draft", "scheduled"]).nullable(),
  category: z.string().nullable(),
  slug: z.string().nullable(),
  /** Images to copy (a dry run) or copied and failed (an import). */
  images: z.number().int(),
  /** The old address that will answer 301 to the post. */
  redirect: z.string().nullable(),
  /** An image could not be copied: a placeholder marks where it was. */
  needsImages: z.boolean(),
});
export type ImportItem = z.output<typeof importItemSchema>;

const counted = z.number().int().default(0);

export const importReportSchema = z.object({
  // `failed`: the write of a post that was ready went wrong (its error is on its item).
  posts: z.object({ new: z.number().int(), skipped: z.number().int(), failed: counted }),
  images: z.object({
    copied: z.number().int().meta({ description: "Images copied (a dry run: images to copy)" }),
    failed: z.array(z.object({ url: z.string(), reason: z.string() })),
  }),
  // `skipped` = alreadyThere + keptOut + invalid: every address of the list is in exactly one count.
  subscribers: z.object({ imported: z.number().int(), skipped: z.number().int(), alreadyThere: counted, keptOut: counted, invalid: counted }),
  /** Why addresses were kept out or already here, with how many each. */
  subscriberReasons: z.array(z.object({ reason: z.string(), count: z.number().int() })).default([]),
  redirects: z.number().int(),
  warnings: z.array(importWarningSchema),
  /** Each item of the export (the first `listedReportItems`); the totals count them all. */
  items: z.array(importItemSchema).default([]),
  /** items = imported + skipped + failed: the export's items, every one accounted for. */
  totals: z
    .object({ items: counted, imported: counted, skipped: counted, failed: counted })
    .default({ items: 0, imported: 0, skipped: 0, failed: 0 }),
});
export type ImportReport = z.output<typeof importReportSchema>;

export const runStatuses = ["running", "done", "failed"] as const;

export const importRunSchema = z.object({
  id: z.number().int(),
  source: z.enum(importSources),
  status: z.enum(runStatuses),
  dryRun: z.boolean(),
  report: importReportSchema,
  error: z.string().nullable().optional(),
});
export type ImportRun = z.output<typeof importRunSchema>;

export const createdRunSchema = z.object({ id: z.number().int() });

/** An empty report: what a run starts from and adds to. */
export function emptyReport(): ImportReport {
  return {
    posts: { new: 0, skipped: 0, failed: 0 },
    images: { copied: 0, failed: [] },
    subscribers: { imported: 0, skipped: 0, alreadyThere: 0, keptOut: 0, invalid: 0 },
    subscriberReasons: [],
    redirects: 0,
    warnings: [],
    items: [],
    totals: { items: 0, imported: 0, skipped: 0, failed: 0 },
  };
}
