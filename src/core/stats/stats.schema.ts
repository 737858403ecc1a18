import { z } from "zod";

/**
 * What the beacon sends (`POST /api/events`, as `text/plain` from `navigator.sendBeacon`, or JSON):
 * the page's address (its path and UTM parameters are kept, nothing else of it), the referrer, and
 * whether the page was the "not found" page.
 */
export const pageViewReportSchema = z.object({
  url: z.string().max(1000),
  referrer: z.string().max(800).optional().default(""),
  notFound: z.boolean().optional().default(false),
});
export type PageViewReport = z.output<typeof pageViewReportSchema>;

/** The largest beacon body taken: an address and a referrer, with room to spare. */
export const maxPageViewReportBytes = 2 * 1024;

const dayString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Dates are YYYY-MM-DD");

/** The dashboard's range: both days included; at most 400 days. Without them, the last 30 days. */
export const statsQuerySchema = z
  .object({ from: dayString.optional(), to: dayString.optional() })
  .refine((range) => !range.from || !range.to || range.from <= range.to, { message: "from must not be after to" });
export type StatsQuery = z.output<typeof statsQuerySchema>;

const count = z.number().int().nonnegative();

export const statsSchema = z.object({
  from: z.string(),
  to: z.string(),
  visitors: count,
  pageviews: count,
  pages: z.array(z.object({ path: z.string(), visitors: count, pageviews: count })),
  sources: z.array(z.object({ source: z.string(), visitors: count })),
  devices: z.array(z.object({ device: z.string(), visitors: count })),
  countries: z.array(z.object({ country: z.string(), visitors: count })),
  signups: z.array(z.object({ path: z.string(), source: z.string(), signups: count, confirmed: count })),
  downloads: z.array(z.object({ id: z.number().int(), title: z.string(), downloads: count })),
  series: z.array(z.object({ date: z.string(), visitors: count, pageviews: count })),
  /** Download requests by the page the resource was asked for on and the visit's source. */
  downloadSources: z.array(z.object({ path: z.string(), source: z.string(), downloads: count })),
  /**
   * The newsletters sent in the range: delivered, clicks (unique per recipient) per link, and the
   * recipients who unsubscribed after it and before the next one. No opens: see the Stats tab.
   */
  newsletters: z.array(
    z.object({
      id: z.number().int(),
      subject: z.string(),
      sentAt: z.string(),
      delivered: count,
      clicks: count,
      uniqueClicks: count,
      unsubscribes: count,
      links: z.array(z.object({ url: z.string(), clicks: count, uniqueClicks: count })),
    }),
  ),
  /** Comments per post (issue 44 point 7): the public count, and how many of them were written in the range; most commented first. */
  comments: z.array(z.object({ id: z.number().int(), title: z.string(), path: z.string(), comments: count, inRange: count })),
  /** Pages answered "not found", counted apart from page views. */
  notFound: z.array(z.object({ path: z.string(), views: count })),
});
export type Stats = z.output<typeof statsSchema>;

/** What `GET /api/newsletter/sends/{id}` adds: every click, unique clickers, and each link's. */
export const sendClicksSchema = z.object({
  clicks: count,
  uniqueClicks: count,
  links: z.array(z.object({ url: z.string(), clicks: count, uniqueClicks: count })),
});

/**
 * `GET /api/stats/audience`: the people per reader topic and per subscriber tag, how that moved in
 * the range, and the newsletter clicks that belong to each (decision 0081).
 */
const audienceMovement = {
  /** Active subscribers now (a topic: who chose it; a tag: who carries it). */
  subscribers: count,
  /** Started in the range (a topic followed, a tag set), by people not pending. */
  gained: count,
  /** Of the people who follow it (carry it), those who left in the range (unsubscribed, bounced, complained). */
  left: count,
};
const audienceClicks = {
  /** Clicks on the links of the newsletters counted (every click, as each link counts them). */
  clicks: count,
  /** People who clicked at least once. */
  clickers: count,
};
export const audienceStatsSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Readers who follow everything (the default): they get every topic's posts. */
  everything: z.object(audienceMovement),
  /** Each reader topic: its followers, and the newsletters of its posts sent in the range, with their clicks. */
  topics: z.array(z.object({ slug: z.string(), name: z.string(), ...audienceMovement, newsletters: count, delivered: count, ...audienceClicks })),
  /** Each subscriber tag (most carriers first, at most 100): its people, and their clicks on the newsletters sent in the range. */
  tags: z.array(z.object({ slug: z.string(), ...audienceMovement, ...audienceClicks })),
});
export type AudienceStats = z.output<typeof audienceStatsSchema>;
