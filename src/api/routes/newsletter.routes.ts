import { z } from "zod";
import {
  subscribedSchema,
  subscriberCountsSchema,
  subscriberCursorPattern,
  subscriberStatuses,
  subscribeSchema,
} from "../../core/subscribers/subscriber.schema.ts";
import { subscriberImportFormSchema, subscriberImportResultSchema } from "../../core/subscribers/subscriber-import.schema.ts";
import { subscriberGoneMessage } from "../../core/subscribers/subscriber-privacy.schema.ts";
import {
  subscriberFilterSchema,
  subscriberTagChangedSchema,
  subscriberTagChangeSchema,
  taggedSubscriberSchema,
} from "../../core/subscribers/subscriber-tags.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, fileAnswer, jsonAnswer, redirectAnswer } from "../declare-route.ts";
import { maxListLimit } from "../../core/list-page.ts";
import { listPageQuery, rowIdParams } from "../params.schema.ts";

const subscriberId = rowIdParams(subscriberGoneMessage);

export const newsletterRoutes = {
  subscribe: declareRoute({
    method: "POST",
    path: apiPaths.subscribe,
    access: "public",
    summary: "Signs an address up for the newsletter (the answer is the same whether it was new or not)",
    // Without JavaScript the browser posts the form itself: it gets a page to land on, not JSON.
    body: { type: "json", schema: subscribeSchema, form: { success: "/subscribed/", failure: "/subscribe-failed/" } },
    answers: {
      200: jsonAnswer(subscribedSchema, "Subscribed"),
      303: redirectAnswer("A form posted without JavaScript: to /subscribed/, or /subscribe-failed/ when refused"),
    },
    errors: [429],
  }),
  subscribers: declareRoute({
    method: "GET",
    path: apiPaths.subscribers,
    access: "admin",
    scope: "subscribers:read",
    summary:
      'Every subscriber, newest first, with their tags (or one page with `limit`; filtered by `status`, `topic`, `tag` and `q`). When more follow, a `Link: <…>; rel="next"` header gives the next page\'s URL, with the same filters',
    query: z.object({
      ...listPageQuery(maxListLimit),
      after: z
        .string()
        .regex(subscriberCursorPattern, "after must be the cursor of a Link header")
        .optional()
        .meta({ description: 'Where the page starts: the cursor the last page\'s `Link: rel="next"` header carries (any depth, one index scan)' }),
      status: z.enum(subscriberStatuses, { error: `status must be one of: ${subscriberStatuses.join(", ")}` }).optional(),
      topic: subscriberFilterSchema.shape.topic,
      tag: subscriberFilterSchema.shape.tag,
      q: subscriberFilterSchema.shape.q,
    }),
    answers: { 200: jsonAnswer(z.array(taggedSubscriberSchema), "The subscribers") },
  }),
  counts: declareRoute({
    method: "GET",
    path: apiPaths.subscriberCounts,
    access: "admin",
    scope: "subscribers:read",
    summary: "How many subscribers there are: in all, by status, and from the newsletter form",
    answers: { 200: jsonAnswer(subscriberCountsSchema, "The totals") },
  }),
  export: declareRoute({
    method: "GET",
    path: apiPaths.subscribersExport,
    access: "admin",
    scope: "subscribers:read",
    summary: "Every subscriber as CSV (email-subscribers.csv)",
    answers: { 200: fileAnswer("text/csv", "The CSV file, formula-safe") },
  }),
  import: declareRoute({
    method: "POST",
    path: apiPaths.subscribersImport,
    access: "admin",
    scope: "subscribers:write",
    summary:
      "Imports a CSV (column `email`; `subscribed_at`, `source` optional) of people the owner confirms agreed to the newsletter: new addresses become active, existing ones are skipped; everyone added is tagged `import:<date>` and with the `tags` field's tags (comma-separated)",
    body: { type: "multipart", schema: subscriberImportFormSchema },
    answers: { 200: jsonAnswer(subscriberImportResultSchema, "How many were imported and skipped, and the rows refused with their line numbers") },
    errors: [413],
  }),
  tagList: declareRoute({
    method: "GET",
    path: apiPaths.subscriberTags,
    access: "admin",
    scope: "subscribers:read",
    summary: "The subscriber tags there are, by slug, with how many people carry each (the poll dialog's choice of a tag)",
    answers: { 200: jsonAnswer(z.array(z.object({ tag: z.string(), people: z.number().int() })), "The tags") },
  }),
  tags: declareRoute({
    method: "POST",
    path: apiPaths.subscriberTags,
    access: "admin",
    scope: "subscribers:write",
    summary:
      "Adds and removes subscriber tags on people: by `ids`, or everyone a `filter` lists (the Subscribers tab's status, topic, tag and search); an added tag records the owner as why, with the time",
    body: { type: "json", schema: subscriberTagChangeSchema },
    answers: { 200: jsonAnswer(subscriberTagChangedSchema, "How many people it was applied to") },
  }),
  exportOne: declareRoute({
    method: "GET",
    path: apiPaths.subscriberExport,
    access: "admin",
    scope: "subscribers:read",
    summary: "Everything held about one subscriber (the row, their consent records, the emails sent to them) as a JSON download",
    params: subscriberId,
    answers: { 200: fileAnswer("application/json", "subscriber-<id>.json, as an attachment") },
  }),
  erase: declareRoute({
    method: "DELETE",
    path: apiPaths.subscriber,
    access: "admin",
    scope: "subscribers:write",
    summary: "Erases a subscriber for good: the row, their consent records and every send record",
    params: subscriberId,
    answers: { 204: emptyAnswer("Erased") },
  }),
};
