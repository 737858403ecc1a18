import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, jsonAnswer } from "../declare-route.ts";
import { maxPageViewReportBytes, pageViewReportSchema, statsQuerySchema, statsSchema } from "../../core/stats/stats.schema.ts";

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
    summary: "The Stats tab's figures for a range of days (`from`, `to`: YYYY-MM-DD, both included, the site's time zone; default the last 30 days)",
    query: statsQuerySchema,
    answers: { 200: jsonAnswer(statsSchema, "Visitors, page views and what they did, by day, page, source, device and country") },
  }),
};
