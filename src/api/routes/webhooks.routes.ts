import { z } from "zod";
import {
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookDeliveryStatusSchema,
  webhookEndpointInputSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookEndpointWithSecretSchema,
  webhookRedeliverAnswerSchema,
  webhookRedeliverSchema,
} from "../../core/webhooks/webhook.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, jsonAnswer } from "../declare-route.ts";
import { rowIdParams } from "../params.schema.ts";

const endpointId = rowIdParams("Webhook endpoint not found");

/** Outgoing webhooks (docs/webhooks.md): the owner's endpoints, their secrets, their delivery log. */

// Managed with the owner's session only, never with an API key (`scope: "none"`, as the keys are): an
// endpoint decides where the site's events go and carries the secret that signs them.
export const webhooksRoutes = {
  list: declareRoute({
    method: "GET",
    path: apiPaths.webhooks,
    access: "admin",
    scope: "none",
    summary: "Every webhook endpoint, oldest first (secrets are never listed)",
    answers: { 200: jsonAnswer(z.array(webhookEndpointSchema), "The endpoints") },
  }),
  create: declareRoute({
    method: "POST",
    path: apiPaths.webhooks,
    access: "admin",
    scope: "none",
    summary:
      "Adds an endpoint (https; http only to localhost under `npm start`) for the chosen events; its `whsec_…` secret is shown in this answer only",
    body: { type: "json", schema: webhookEndpointInputSchema },
    answers: { 201: jsonAnswer(webhookEndpointWithSecretSchema, "The endpoint with its signing secret") },
  }),
  update: declareRoute({
    method: "PUT",
    path: apiPaths.webhook,
    access: "admin",
    scope: "none",
    summary: "Changes an endpoint's address, description, events, or switches it on or off (on again: its waiting deliveries go)",
    params: endpointId,
    body: { type: "json", schema: webhookEndpointUpdateSchema },
    answers: { 200: jsonAnswer(webhookEndpointSchema, "The endpoint") },
  }),
  remove: declareRoute({
    method: "DELETE",
    path: apiPaths.webhook,
    access: "admin",
    scope: "none",
    summary: "Deletes an endpoint with its deliveries and their log",
    params: endpointId,
    answers: { 204: emptyAnswer("Deleted") },
  }),
  test: declareRoute({
    method: "POST",
    path: apiPaths.webhookTest,
    access: "admin",
    scope: "none",
    summary: "Sends a `webhook.test` event to this endpoint, signed and logged like any other",
    params: endpointId,
    answers: { 201: jsonAnswer(webhookDeliverySchema, "The test delivery, after its first attempt when the platform waits for it") },
  }),
  rotateSecret: declareRoute({
    method: "POST",
    path: apiPaths.webhookRotateSecret,
    access: "admin",
    scope: "none",
    summary: "A new signing secret; the previous one still signs, beside it, for 24 hours",
    params: endpointId,
    answers: { 200: jsonAnswer(webhookEndpointWithSecretSchema, "The endpoint with its new secret") },
  }),
  deliveries: declareRoute({
    method: "GET",
    path: apiPaths.webhookDeliveries,
    access: "admin",
    scope: "none",
    summary: "The endpoint's delivery log, newest first, 50 a page: each delivery with every attempt (status, time taken, the answer's first 2 KB)",
    params: endpointId,
    query: z.object({
      status: webhookDeliveryStatusSchema.optional().meta({ description: "Only deliveries in this state" }),
      page: z
        .string()
        .regex(/^[1-9]\d{0,5}$/, "page must be a whole number from 1")
        .transform(Number)
        .optional()
        .meta({ description: "Which page, from 1" }),
    }),
    answers: { 200: jsonAnswer(webhookDeliveryPageSchema, "One page of the log") },
  }),
  redeliver: declareRoute({
    method: "POST",
    path: apiPaths.webhookRedeliver,
    access: "admin",
    scope: "none",
    summary: "Sends failed deliveries again (the same `webhook-id`): those named by `ids`, or every failed one since a time",
    params: endpointId,
    body: { type: "json", schema: webhookRedeliverSchema },
    answers: { 200: jsonAnswer(webhookRedeliverAnswerSchema, "How many were queued again") },
  }),
};
