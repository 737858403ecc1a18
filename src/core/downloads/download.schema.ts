import { z } from "zod";
import { missingFileMessage } from "../messages.ts";
import { altTextField, decorativeField, missingAlt } from "../shared/image-alt.schema.ts";
import { subscribeSchema } from "../subscribers/subscriber.schema.ts";

/** ISO 4217, lower case, as Stripe spells currencies. */
export const currencySchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{3}$/, "The currency must be a three-letter ISO 4217 code, e.g. usd or eur");

/** Minor units: 0 (free) up to 999,999.99. */
export const maxPrice = 99_999_999;

/**
 * A price given as a multipart field, in minor units: empty is free (0); left out is undefined (an
 * update keeps the stored price, a new resource is free).
 */
export const priceField = z.preprocess(
  (value) => (value === "" ? 0 : value),
  z.coerce
    .number({ error: "The price must be a whole number of minor units (cents)" })
    .int("The price must be a whole number of minor units (cents)")
    .min(0, "The price cannot be negative")
    .max(maxPrice, `The price must be at most ${String(maxPrice)}`)
    .optional(),
);

/** The categories the dashboard offers; the server accepts any other short name as well. */
export const downloadCategories = ["Templates", "Checklists", "Guides", "Tools"] as const;

const requiredText = (message: string, max: number, tooLong: string) => z.string({ error: message }).trim().min(1, message).max(max, tooLong);

// An empty file input may arrive as an empty text field (undici's FormData serializes a nameless
// file that way): it means "no file", as leaving the input empty in a browser does.
const optionalFile = (message: string) => z.preprocess((value) => (value === "" ? undefined : value), z.instanceof(File, { message }).optional());

/** The thumbnail's alt text is required with a new thumbnail, unless it is marked decorative. */
export const thumbnailAltMessage = "Describe the thumbnail (alt text), or mark it decorative";

/**
 * The resource form, shared by the dashboard and the server. `file` is optional here because an
 * update may keep the current one; creating without a file is refused by the service.
 */
export const downloadFormSchema = z
  .object({
    title: requiredText("Title is required", 200, "The title must be at most 200 characters"),
    description: requiredText("Description is required", 2000, "The description must be at most 2000 characters"),
    category: requiredText("Category is required", 50, "The category must be at most 50 characters"),
    file: optionalFile(missingFileMessage),
    thumbnail: optionalFile("The thumbnail must be an image file"),
    // Required with a new thumbnail unless decorative; without one, given replaces, left out keeps.
    thumbnailAlt: altTextField,
    thumbnailDecorative: decorativeField,
    /** Minor units (cents); empty or 0 = free (issue 47 point 3). */
    price: priceField,
    /** ISO 4217, lower case; default `usd`. */
    currency: z.preprocess((value) => (value === "" ? undefined : value), currencySchema.optional()),
  })
  .superRefine((form, context) => {
    if (form.thumbnail && missingAlt(form.thumbnailAlt, form.thumbnailDecorative)) {
      context.addIssue({ code: "custom", path: ["thumbnailAlt"], message: thumbnailAltMessage });
    }
  });

/** What the service is given: the alt fields may be left out by a caller that stores no new thumbnail. */
export type DownloadForm = Omit<z.output<typeof downloadFormSchema>, "thumbnailAlt" | "thumbnailDecorative" | "price" | "currency"> & {
  price?: number | undefined;
  currency?: string | undefined;
  thumbnailAlt?: string | undefined;
  thumbnailDecorative?: boolean | undefined;
};
/** What the dashboard's form sends. */
export type DownloadFormInput = z.input<typeof downloadFormSchema>;

/** The email a visitor gives before downloading: the same rules as a newsletter signup. */
export const downloadRequestSchema = subscribeSchema;

export type DownloadRequest = z.output<typeof downloadRequestSchema>;

/** A resource as the public page and its islands see it. */
export const publicDownloadSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  fileName: z.string(),
  thumbnailUrl: z.string().nullable(),
  thumbnailAlt: z
    .string()
    .nullable()
    .meta({ description: 'The thumbnail\'s alt text; `""` when marked decorative; null when not described yet (or no thumbnail)' }),
  downloadCount: z.number().int(),
  /** Minor units; 0 = free (asked for with an email). */
  price: z.number().int(),
  /** ISO 4217, lower case. */
  currency: z.string(),
});

export type PublicDownload = z.output<typeof publicDownloadSchema>;

/** The dashboard's view of a resource: also the thumbnail's stored path. */
export const adminDownloadSchema = publicDownloadSchema.extend({ thumbnailPath: z.string().nullable() });

export type AdminDownload = z.output<typeof adminDownloadSchema>;

/** The answer to a download request: a signed link, valid for 24 hours. */
export const downloadLinkSchema = z.object({ downloadUrl: z.string() });

/** The query of a signed download link. */
export const downloadLinkQuerySchema = z.object({
  expires: z.string().optional(),
  signature: z.string().optional(),
  r: z.string().optional(),
  /** A paid resource's link: its payment. */
  p: z.string().optional(),
});
