import { z } from "zod";

/** A preview link lives 1 hour to 30 days; the dashboard offers 7 days first. */
export const previewLinkHours = { min: 1, max: 720, default: 168 } as const;

/** The lifetimes the dashboard offers, in hours. */
export const previewLinkLifetimes = [
  { hours: 1, label: "1 hour" },
  { hours: 24, label: "1 day" },
  { hours: 168, label: "7 days" },
  { hours: 720, label: "30 days" },
] as const;

const hoursMessage = `expiresInHours must be a whole number of hours from ${String(previewLinkHours.min)} to ${String(previewLinkHours.max)}`;

/** `POST /api/blog-posts/{id}/preview-links`. */
export const previewLinkRequestSchema = z.object({
  expiresInHours: z.number({ error: hoursMessage }).int(hoursMessage).min(previewLinkHours.min, hoursMessage).max(previewLinkHours.max, hoursMessage),
});

export type PreviewLinkRequest = z.output<typeof previewLinkRequestSchema>;

/** A preview link as the dashboard sees it. */
export const previewLinkSchema = z.object({
  id: z.number().int(),
  url: z.string().meta({ description: "The signed link, absolute on SITE_URL: `{SITE_URL}/preview/{id}/{signature}`" }),
  expiresAt: z.iso.datetime(),
  views: z.number().int().meta({ description: "Times the preview was shown" }),
});

export type PreviewLink = z.output<typeof previewLinkSchema>;
