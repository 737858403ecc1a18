import { z } from "zod";

/**
 * The calls of an upload in parts (chunked-uploads.ts holds the why and the server code), apart from
 * that code: the route declarations, which the dashboard's client also ships, import them.
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
