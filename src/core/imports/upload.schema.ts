import { z } from "zod";

/**
 * A file larger than one request may carry (Netlify: about 4.5 MB) comes in parts: each part is
 * stored in Blobs as it arrives, and the run that reads the file reads the parts in order, so a
 * 100 MB export is never one request and never one buffer (chunked-uploads.ts). The shapes of its
 * calls, apart from that server code: the route declarations, which the dashboard's client reads too, import them.
 */
export const maxUploadParts = 10_000;

export const uploadIdSchema = z.uuid("Upload not found");
export const uploadPartParams = z.object({
  uploadId: uploadIdSchema,
  part: z
    .string()
    .regex(/^[1-9]\d{0,4}$/, `Part must be a whole number from 1 to ${String(maxUploadParts)}`)
    .transform(Number)
    .refine((part) => part <= maxUploadParts, `Part must be a whole number from 1 to ${String(maxUploadParts)}`),
});
export const uploadParams = z.object({ uploadId: uploadIdSchema });
export const uploadStartedSchema = z.object({ uploadId: z.string() });
export const uploadCompleteSchema = z.object({ uploadId: z.string(), parts: z.number().int() });
