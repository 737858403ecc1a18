import { z } from "zod";

const trueValues = new Set(["true", "on", "1"]);

/** `POST /api/restores`: the archive, and whether it may replace a site that has content. */
export const restoreFormSchema = z
  .object({
    file: z.instanceof(File, { error: "Please choose a backup archive (.zip)" }).optional(),
    // An archive over 4 MB arrives first in parts (`/api/uploads`); then its id stands for the file.
    uploadId: z.uuid("Upload not found").optional(),
    replace: z
      .union([z.string(), z.boolean()])
      .optional()
      .transform((value) => value === true || (typeof value === "string" && trueValues.has(value))),
  })
  .refine((form) => form.file ?? form.uploadId, { error: "Please choose a backup archive (.zip)", path: ["file"] });
export type RestoreFormInput = z.input<typeof restoreFormSchema>;

export const backupStatuses = ["running", "done", "failed"] as const;

export const backupSchema = z.object({
  id: z.number().int(),
  createdAt: z.iso.datetime(),
  bytes: z.number().int().nullable(),
  status: z.enum(backupStatuses),
  downloadUrl: z
    .string()
    .optional()
    .meta({ description: "A signed link to the archive, valid for an hour and only with the owner's session (done backups only)" }),
});
export type Backup = z.output<typeof backupSchema>;

export const restoreRunSchema = z.object({
  id: z.number().int(),
  status: z.enum(backupStatuses),
  error: z.string().nullable(),
  report: z
    .object({
      tables: z.number().int(),
      rows: z.number().int(),
      files: z.number().int(),
      skipped: z
        .array(z.object({ entry: z.string(), row: z.string().optional(), reason: z.string() }))
        .optional()
        .meta({ description: "Rows and files left out because they fail the checks a save makes (the first 100), with why" }),
      skippedCount: z.number().int().optional().meta({ description: "How many rows and files were left out" }),
    })
    .nullable()
    .meta({ description: "What was restored (when done)" }),
});
export type RestoreRun = z.output<typeof restoreRunSchema>;

export const backupLinkQuerySchema = z.object({
  expires: z.string().optional(),
  signature: z.string().optional(),
  // Checked after the signature: a part that is not a number from 1 to the count answers 404, like a missing one.
  part: z
    .string()
    .optional()
    .meta({ description: "One part of the archive (1-based; the count is in `x-backup-parts`); without it, the whole archive" }),
});
