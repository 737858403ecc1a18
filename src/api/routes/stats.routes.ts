import { apiPaths } from "../api-paths.ts";
import { z } from "zod";
import { declareRoute, emptyAnswer, jsonAnswer, redirectAnswer } from "../declare-route.ts";
import { audienceStatsSchema, maxPageViewReportBytes, pageViewReportSchema, statsQuerySchema, statsSchema } from "../../core/stats/stats.schema.ts";

export const statsRoutes = {
  event: declareRoute({
    method: "POST",
    path: apiPaths.events,
    access: "public",
    summary:
      "The page-view beacon (`navigator.sendBeacon`, `text/plain` or JSON, at most 2 KB). Counted unless it comes from a bot or the owner's session; no cookie is read or set for it",
    body: { type: "json", schema: pageViewReportSchema, maxBytes: maxPageViewReportBytes },
    answers: { 202: emptyAnswer("Taken (counted, or dropped as a bot's or the owner's)") },
    errors: [429],
  }),
  stats: declareRoute({
    method: "GET",
    path: apiPaths.stats,
    access: "admin",
    scope: "stats:read",
    summary: "The Stats tab's figures for a range of days (`from`, `to`: YYYY-MM-DD, both included, the site's time zone; default the last 30 days)",
    query: statsQuerySchema,
    answers: { 200: jsonAnswer(statsSchema, "Visitors, page views and what they did, by day, page, source, device and country") },
  }),
  audience: declareRoute({
    method: "GET",
    path: apiPaths.statsAudience,
    access: "admin",
    scope: "stats:read",
    summary:
      "Subscribers, growth and newsletter clicks per reader topic and per subscriber tag for a range of days (`from`, `to` as for `GET /api/stats`). A topic's clicks are those on the newsletters of its posts; a tag's are its people's",
    query: statsQuerySchema,
    answers: {
      200: jsonAnswer(audienceStatsSchema, "Everything's followers, then each topic and each subscriber tag (at most 100, most people first)"),
    },
  }),
  click: declareRoute({
    method: "GET",
    path: apiPaths.newsletterClick,
    access: "public",
    summary:
      "A newsletter link's signed redirect: counts the click (per link, send and recipient) and answers 302 to the link's address; a tampered or unknown token goes to the site's home, never elsewhere",
    query: z.object({ l: z.string().max(200).optional(), r: z.string().max(200).optional() }),
    answers: { 302: redirectAnswer("To the link's original address, or to the site's home for a token that is not genuine") },
  }),
};

/** The click redirect for a link's token and a recipient's (`statsRoutes.click`). */
export const newsletterClickUrl = (linkToken: string, recipientToken: string) =>
  `${apiPaths.newsletterClick}?${new URLSearchParams({ l: linkToken, r: recipientToken }).toString()}`;
