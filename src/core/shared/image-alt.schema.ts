import { z } from "zod";

/**
 * An image's alt text as the forms send it and the database keeps it (issue 33, point 5): the
 * words, or `""` for an image the owner marked decorative, or `null` for one nobody has described
 * yet (images from before the field existed, an import whose source had none). The public pages
 * render `null` as `alt=""`, never the file name; the dashboard shows it as "No alt text yet".
 */
export const maxAltLength = 300;

/** The checkbox's words, the same in every form and in the editor's image dialog. */
export const decorativeLabel = "Decorative image (no alt text)";

const trueValues = new Set(["true", "on", "1"]);

/** The text field: trimmed, empty means "not given". */
export const altTextField = z
  .string()
  .trim()
  .max(maxAltLength, `Alt text must be ${String(maxAltLength)} characters or less`)
  .optional()
  .transform((value) => value || undefined);

/** The "decorative" checkbox, as a browser form or a script sends it. */
export const decorativeField = z
  .union([z.string(), z.boolean()])
  .optional()
  .transform((value) => value === true || (typeof value === "string" && trueValues.has(value)));

/** What to store: the words, `""` for decorative, `undefined` when neither was given (keep or leave null). */
export function altToStore(alt: string | undefined, decorative = false): string | undefined {
  return decorative ? "" : alt;
}

/** True when an image needs its alt text: neither words nor the decorative mark. */
export const missingAlt = (alt: string | undefined, decorative = false): boolean => !decorative && !alt;

/** The stored alt as an `<img alt>`: `null` (not described yet) shows as empty, never a file name. */
export const altAttribute = (alt: string | null | undefined): string => alt ?? "";
