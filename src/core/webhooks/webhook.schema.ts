import { z } from "zod";

/**
 * Outgoing webhooks (issue 46; docs/webhooks.md; docs/decisions/0068-outgoing-webhooks.md): each
 * event type and the `data` it carries, the body every delivery sends, and the API's shapes.
 */

const subscriberData = z
  .object({
    id: z.number().int(),
    email: z.string(),
    status: z.enum(["pending", "active", "unsubscribed", "bounced", "complained"]),
  })
  .meta({ description: "The subscriber as it is after the event" });

const postData = z
  .object({
    id: z.number().int(),
    title: z.string(),
    slug: z.string(),
    path: z.string().nullable().meta({ description: "Its page on the site (`/blog/{slug}`) while published; null once unpublished" }),
  })
  .meta({ description: "The post after the event" });

/** Each event type and its `data`: a new type is a row here, its call in its feature and its example in docs/webhooks.md. */
export const webhookEventData = {
  "subscriber.created": subscriberData,
  "subscriber.confirmed": subscriberData,
  "subscriber.unsubscribed": subscriberData,
  "subscriber.bounced": subscriberData,
  "subscriber.complained": subscriberData,
  "subscriber.updated": subscriberData,
  "download.requested": z.object({
    downloadId: z.number().int(),
    title: z.string(),
    subscriber: z.object({ id: z.number().int(), email: z.string() }),
  }),
  "post.published": postData,
  "post.updated": postData,
  "post.unpublished": postData,
  "newsletter.sent": z.object({
    sendId: z.number().int(),
    postId: z.number().int().nullable(),
    subject: z.string(),
    sent: z.number().int(),
    failed: z.number().int(),
  }),
} as const;

export type WebhookEventType = keyof typeof webhookEventData;
export const webhookEventTypes = Object.keys(webhookEventData) as [WebhookEventType, ...WebhookEventType[]];
export const webhookEventTypeSchema = z.enum(webhookEventTypes);
export type WebhookEventDataOf<Type extends WebhookEventType> = z.input<(typeof webhookEventData)[Type]>;

/** What every delivery's body is: the Standard Webhooks shape `{ type, timestamp, data }`. */
export const webhookBodySchema = z.object({
  type: webhookEventTypeSchema,
  timestamp: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
});

const eventsField = z
  .array(webhookEventTypeSchema, { error: `events must be a list of: ${webhookEventTypes.join(", ")}` })
  .min(1, "Choose at least one event")
  .transform((events) => [...new Set(events)]);

export const webhookEndpointInputSchema = z.object({
  url: z.string().trim().min(1, "url is required").max(2000, "url must be at most 2000 characters"),
  description: z.string().trim().max(200, "description must be at most 200 characters").default(""),
  events: eventsField,
});

export const webhookEndpointUpdateSchema = z.object({
  url: webhookEndpointInputSchema.shape.url.optional(),
  description: z.string().trim().max(200, "description must be at most 200 characters").optional(),
  events: eventsField.optional(),
  enabled: z.boolean().optional(),
});

export const webhookEndpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  events: z.array(webhookEventTypeSchema),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  failingSince: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** The secret is shown when the endpoint is made and when it is rotated, never listed. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  secret: z.string().meta({ description: "`whsec_…`: verify deliveries with it (any Standard Webhooks library)" }),
});

export const webhookDeliveryStatusSchema = z.enum(["pending", "sent", "failed", "skipped"]);

export const webhookAttemptSchema = z.object({
  at: z.iso.datetime(),
  status: z
    .number()
    .int()
    .nullable()
    .meta({ description: "The HTTP status answered; null when none came (network error, timeout, refused address)" }),
  durationMs: z.number().int(),
  response: z.string().meta({ description: "The answer's first 2 KB" }),
  error: z.string().nullable(),
});

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  eventId: z.string().meta({ description: "The `webhook-id`: the same for every try of this event" }),
  type: webhookEventTypeSchema.or(z.literal("webhook.test")),
  status: webhookDeliveryStatusSchema,
  attempts: z.array(webhookAttemptSchema),
  lastError: z.string().nullable(),
  nextTryAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime().meta({ description: "When the event happened (kept when it is sent again)" }),
  resentAt: z.iso.datetime().nullable().meta({ description: "When the owner last sent it again: its 3 days of retries count from then" }),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryPageSchema = z.object({
  deliveries: z.array(webhookDeliverySchema),
  page: z.number().int(),
  pages: z.number().int(),
  total: z.number().int(),
});

export const webhookRedeliverSchema = z.union(
  [
    z.object({ ids: z.array(z.number().int().positive()).min(1, "ids must name at least one delivery").max(500, "At most 500 ids at once") }),
    z.object({ since: z.iso.datetime({ error: "since must be a date and time (ISO 8601)" }) }),
  ],
  { error: 'Send { ids: [...] } or { since: "…" }' },
);

export const webhookRedeliverAnswerSchema = z.object({ queued: z.number().int() });
