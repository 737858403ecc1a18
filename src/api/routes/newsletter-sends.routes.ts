import { sendClicksSchema } from "../../core/stats/stats.schema.ts";
import { z } from "zod";
import {
  failedRecipientSchema,
  newsletterSendSchema,
  startSendSchema,
  testSendSchema,
  testSentSchema,
} from "../../core/newsletter/newsletter.schema.ts";
import { listHealthSchema } from "../../core/email-events/email-events.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, jsonAnswer } from "../declare-route.ts";
import { rowIdParams, rowIdQuery } from "../params.schema.ts";

const sendId = rowIdParams("Send not found");

/** The email a post would be sent as: what the dashboard shows before "Send test" and the send itself. */
export const newsletterPreviewSchema = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  htmlBytes: z.number().int().meta({ description: "The HTML's size in bytes (UTF-8)" }),
  clipWarning: z.string().nullable().meta({ description: "Set when the HTML is over Gmail's 102 KB clip: what it means and what to do" }),
});

export const newsletterSendsRoutes = {
  start: declareRoute({
    method: "POST",
    path: apiPaths.newsletterSends,
    access: "admin",
    scope: "subscribers:write",
    summary:
      "Sends a published post to every active subscriber, once the post's public page answers 200 (`waiting` until then), now or at `sendAt` (`scheduled` until then): the recipients are fixed when it starts (in batches: `preparing` while a large list is fixed, with no `total` until it is) and workers send in the background (400 for a draft, a `sendAt` that has passed, or, sending now, an empty list; 409 when the post was sent already)",
    body: { type: "json", schema: startSendSchema },
    answers: {
      202: jsonAnswer(
        newsletterSendSchema,
        "The send: `queued` (started), `preparing` (started, its recipients still being fixed), `waiting` (for the post's page) or `scheduled`",
      ),
    },
    errors: [409],
  }),
  list: declareRoute({
    method: "GET",
    path: apiPaths.newsletterSends,
    access: "admin",
    scope: "subscribers:read",
    summary: "Every send newest first, or one post's send history with ?postId=",
    query: z.object({
      postId: rowIdQuery("postId must be a post's id").optional().meta({ description: "Only this post's sends" }),
    }),
    answers: { 200: jsonAnswer(z.array(newsletterSendSchema), "The sends with their counts") },
  }),
  // Before the `:id` routes, whose id would otherwise take "test" and "preview".
  test: declareRoute({
    method: "POST",
    path: apiPaths.newsletterTestSend,
    access: "admin",
    scope: "subscribers:write",
    summary: "Sends one preview of a published post's newsletter to one address (no send is recorded)",
    body: { type: "json", schema: testSendSchema },
    answers: { 200: jsonAnswer(testSentSchema, "Handed to the SMTP server") },
  }),
  preview: declareRoute({
    method: "GET",
    path: apiPaths.newsletterSendPreview,
    access: "admin",
    scope: "subscribers:read",
    summary: "The newsletter email a published post would be sent as, to show before sending (no email is sent)",
    query: z.object({
      postId: rowIdQuery("postId must be a post's id").meta({ description: "The post to preview" }),
    }),
    answers: { 200: jsonAnswer(newsletterPreviewSchema, "The email's subject, HTML and text") },
  }),
  get: declareRoute({
    method: "GET",
    path: apiPaths.newsletterSend,
    access: "admin",
    scope: "subscribers:read",
    summary: "A send and its counts: sent + failed + skipped + pending = total",
    params: sendId,
    answers: { 200: jsonAnswer(newsletterSendSchema.extend(sendClicksSchema.shape), "The send, with its clicks (per link)") },
  }),
  failed: declareRoute({
    method: "GET",
    path: apiPaths.newsletterSendFailed,
    access: "admin",
    scope: "subscribers:read",
    summary: "The addresses of a send the SMTP server refused, with its reply",
    params: sendId,
    answers: { 200: jsonAnswer(z.array(failedRecipientSchema), "The failed recipients") },
  }),
  retry: declareRoute({
    method: "POST",
    path: apiPaths.newsletterSendRetry,
    access: "admin",
    scope: "subscribers:write",
    summary: "Sends the email again to the failed recipients of a send, and to no one else",
    params: sendId,
    answers: { 202: jsonAnswer(newsletterSendSchema, "The send, with its failed rows pending again") },
  }),
  resume: declareRoute({
    method: "POST",
    path: apiPaths.newsletterSendResume,
    access: "admin",
    scope: "subscribers:write",
    summary:
      "Goes on with a send that paused itself (complaints or hard bounces over the thresholds): each pending recipient is sent once, and it does not pause itself again (409 unless paused)",
    params: sendId,
    answers: { 202: jsonAnswer(newsletterSendSchema, "The send, going out again") },
    errors: [409],
  }),
  cancel: declareRoute({
    method: "POST",
    path: apiPaths.newsletterSendCancel,
    access: "admin",
    scope: "subscribers:write",
    summary:
      "Stops a send that has not finished (scheduled, waiting, preparing, queued, sending or paused) for good: its pending recipients get nothing (409 when finished)",
    params: sendId,
    answers: { 202: jsonAnswer(newsletterSendSchema, "The send, cancelled") },
    errors: [409],
  }),
  listHealth: declareRoute({
    method: "GET",
    path: apiPaths.newsletterListHealth,
    access: "admin",
    scope: "subscribers:read",
    summary:
      "The list's health over 30 days: the spam-complaint rate against Gmail's 0.3 % line, the hard-bounce rate, and who gets nothing because they bounced or complained",
    answers: { 200: jsonAnswer(listHealthSchema, "The last 30 days") },
  }),
};
