import { z } from "zod";
import {
  sequenceKeySchema,
  sequenceSchema,
  sequenceStepNotFoundMessage,
  sequenceStepPreviewAnswerSchema,
  sequenceStepPreviewSchema,
  sequenceStepStatsSchema,
  sequenceUpdateSchema,
} from "../../core/sequences/sequence.schema.ts";
import { testSentSchema } from "../../core/newsletter/newsletter.schema.ts";
import { emailSchema } from "../../core/subscribers/subscriber.schema.ts";
import { rowIdParam } from "../params.schema.ts";

/** `POST /api/sequences/{key}/steps/{stepId}/test`: where the test of a saved step goes (an address, as a subscriber's is checked). */
const sequenceStepTestSchema = z.object({ email: emailSchema });
import { apiPaths } from "../api-paths.ts";
import { declareRoute, jsonAnswer } from "../declare-route.ts";

const sequenceKey = z.object({ key: sequenceKeySchema });

export const sequencesRoutes = {
  list: declareRoute({
    method: "GET",
    path: apiPaths.sequences,
    access: "admin",
    scope: "subscribers:read",
    summary:
      "The welcome sequence (key `welcome`), then one per resource (`download-{resourceId}`; off with no steps until set up), each with its steps in order",
    answers: { 200: jsonAnswer(z.array(sequenceSchema), "The sequences") },
  }),
  update: declareRoute({
    method: "PUT",
    path: apiPaths.sequence,
    access: "admin",
    scope: "subscribers:write",
    summary:
      "Saves a sequence whole: a step with an `id` is edited in place, one without is added, one left out is removed; HTML is sanitized as a post's. What was queued already is not changed",
    params: sequenceKey,
    body: { type: "json", schema: sequenceUpdateSchema },
    answers: { 200: jsonAnswer(sequenceSchema, "The sequence as saved") },
  }),
  stats: declareRoute({
    method: "GET",
    path: apiPaths.sequenceStats,
    access: "admin",
    scope: "subscribers:read",
    summary: "Each step's figures: emails sent (accepted by the SMTP server), and people who unsubscribed after that step and before the next",
    params: sequenceKey,
    answers: { 200: jsonAnswer(z.array(sequenceStepStatsSchema), "One row per step, in order") },
  }),
  preview: declareRoute({
    method: "POST",
    path: apiPaths.sequencePreview,
    access: "admin",
    scope: "subscribers:read",
    summary: "A step's email as it would be mailed, from its subject and body as given (saved or not); nothing is sent or saved",
    params: sequenceKey,
    body: { type: "json", schema: sequenceStepPreviewSchema },
    answers: { 200: jsonAnswer(sequenceStepPreviewAnswerSchema, "The email's subject, HTML and text") },
  }),
  testStep: declareRoute({
    method: "POST",
    path: apiPaths.sequenceStepTest,
    access: "admin",
    scope: "subscribers:write",
    summary: "Sends one test of a saved step to one address, made from the step as saved when it is delivered (no one's subscription, no figures)",
    params: sequenceKey.extend({ stepId: rowIdParam(sequenceStepNotFoundMessage) }),
    body: { type: "json", schema: sequenceStepTestSchema },
    answers: { 200: jsonAnswer(testSentSchema, "Queued for the SMTP server") },
  }),
};
