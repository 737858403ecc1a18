import { z } from "zod";

/**
 * A cover's focal point (issue 41 point 5): where the owner clicked on its preview, as whole
 * percentages of the image's width and height from its top left. Every crop centres on it as far as
 * the crop allows (CSS `object-position`); none: the middle.
 */
export interface ImageFocus {
  x: number;
  y: number;
}

const focusMessage = 'Focal point must be two percentages "x,y" between 0 and 100, or empty for the middle';

/**
 * The form's field: `"x,y"` (for example `"50,30"`), `""` for the middle, left out to keep the
 * stored one. Given as `null` or `""` it clears the point.
 */
export const imageFocusField = z
  .union([z.string().trim(), z.null()], { error: focusMessage })
  .optional()
  .transform((value, context): ImageFocus | null | undefined => {
    if (value === undefined) return undefined;
    if (value === null || value === "") return null;
    const match = /^(\d{1,3}(?:\.\d+)?)\s*,\s*(\d{1,3}(?:\.\d+)?)$/.exec(value);
    const x = Number(match?.[1]);
    const y = Number(match?.[2]);
    if (!match || x > 100 || y > 100) {
      context.addIssue({ code: "custom", message: focusMessage });
      return z.NEVER;
    }
    return { x: Math.round(x), y: Math.round(y) };
  });

/** The answer's shape: the point, or null for the middle. */
export const imageFocusSchema = z
  .object({ x: z.number().int().min(0).max(100), y: z.number().int().min(0).max(100) })
  .nullable()
  .meta({ description: "The cover's focal point in percent from its top left, used by every crop; null: the middle" });

/** The CSS `object-position` of a crop centred on the point (the middle when there is none). */
export function objectPosition(focus: ImageFocus | null | undefined): string {
  return focus ? `${String(focus.x)}% ${String(focus.y)}%` : "50% 50%";
}

/** The point as the form sends it. */
export const focusFieldValue = (focus: ImageFocus | null | undefined): string => (focus ? `${String(focus.x)},${String(focus.y)}` : "");
