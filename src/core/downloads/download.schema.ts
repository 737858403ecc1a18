import { z } from "zod";
import { subscribeSchema } from "../subscribers/subscriber.schema.ts";

/** The categories the dashboard offers; the server accepts any other short name as well. */
export const downloadCategories = ["Templates", "Checklists", "Guides", "Tools"] as const;

const requiredText = (message: string, max: number, tooLong: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, tooLong);

// An empty file input may arrive as an empty text field (undici's FormData serializes a nameless
// file that way): it means "no file", as leaving the input empty in a browser does.
const optionalFile = (message: string) =>
  z.preprocess((value) => (value === "" ? undefined : value), z.instanceof(File, { message }).optional());

/**
 * The resource form, shared by the dashboard and the server. `file` is optional here because an
 * update may keep the current one; creating without a file is refused by the service.
 */
export const downloadFormSchema = z.object({
  title: requiredText("Title is required", 200, "The title must be at most 200 characters"),
  description: requiredText("Description is required", 2000, "The description must be at most 2000 characters"),
  category: requiredText("Category is required", 50, "The category must be at most 50 characters"),
  file: optionalFile("Please select a file to upload."),
  thumbnail: optionalFile("The thumbnail must be an image file"),
});

export type DownloadForm = z.output<typeof downloadFormSchema>;

/** The email a visitor gives before downloading: the same rules as a newsletter signup. */
export const downloadRequestSchema = subscribeSchema;

export type DownloadRequest = z.output<typeof downloadRequestSchema>;
