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

export const importReportSchema = z.object({
  posts: z.object({ new: z.number().int(), skipped: z.number().int() }),
  images: z.object({
    copied: z.number().int().meta({ description: "Images copied (a dry run: images to copy)" }),
    failed: z.array(z.object({ url: z.string(), reason: z.string() })),
  }),
  subscribers: z.object({ imported: z.number().int(), skipped: z.number().int() }),
  redirects: z.number().int(),
  warnings: z.array(importWarningSchema),
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
  return { posts: { new: 0, skipped: 0 }, images: { copied: 0, failed: [] }, subscribers: { imported: 0, skipped: 0 }, redirects: 0, warnings: [] };
}
