import { z } from "zod";
import { subscriberSchema, subscriberStatuses } from "./subscriber.schema.ts";

/** A subscriber tag's slug (migration 0043's check): `vip`, `signup:home`, `downloaded:pitch-deck`, `import:2026-11-27`. */
export const subscriberTagSlugPattern = /^[a-z0-9]+([:._-][a-z0-9]+)*$/;

export const subscriberTagSources = ["signup", "download", "import", "poll", "payment", "owner"] as const;
export type SubscriberTagSource = (typeof subscriberTagSources)[number];

/** One tag on one person: when and why it was set. */
export const subscriberTagUseSchema = z.object({
  tag: z.string(),
  source: z
    .enum(subscriberTagSources)
    .meta({ description: "Why: the signup page, a download, an import batch, a poll answer, a payment, or the owner" }),
  detail: z.string().meta({ description: "A line for the person's page, e.g. “downloaded Pitch deck teardown”" }),
  setAt: z.iso.datetime(),
});
export type SubscriberTagUse = z.output<typeof subscriberTagUseSchema>;

/** A subscriber as the list shows them, with their tags. */
export const taggedSubscriberSchema = subscriberSchema.extend({
  tags: z.array(subscriberTagUseSchema).meta({ description: "The person's tags, with when and why each was set, oldest first" }),
});

export type TaggedSubscriber = z.output<typeof taggedSubscriberSchema>;

const tagText = z.string({ error: "Each tag must be text" }).min(1, "A tag must not be empty").max(80, "A tag is at most 80 characters");

/** The filter of the Subscribers tab: a status, a topic, a tag, a search in the address. */
export const subscriberFilterSchema = z.object({
  status: z.enum(subscriberStatuses, { error: `status must be one of: ${subscriberStatuses.join(", ")}` }).optional(),
  topic: z.string().max(80).optional().meta({ description: "A topic's slug: people who get its posts (they follow it, or everything)" }),
  tag: z.string().max(80).optional().meta({ description: "A subscriber tag's slug" }),
  q: z.string().max(254).optional().meta({ description: "Part of the address" }),
});
export type SubscriberFilter = z.output<typeof subscriberFilterSchema>;

/** The body of `POST /api/newsletter/subscribers/tags`: whom (ids, or everyone a filter lists) and what to add and remove. */
export const subscriberTagChangeSchema = z
  .object({
    ids: z.array(z.number().int().positive().max(2_147_483_647), { error: "ids must be a list of subscriber ids" }).max(10_000).optional(),
    filter: subscriberFilterSchema.optional(),
    add: z.array(tagText).max(50).default([]),
    remove: z.array(tagText).max(50).default([]),
  })
  .refine((body) => (body.ids === undefined) !== (body.filter === undefined), "Give either ids or filter")
  .refine((body) => body.add.length + body.remove.length > 0, "Give at least one tag to add or remove");

export const subscriberTagChangedSchema = z.object({ changed: z.number().int().meta({ description: "How many people the change was applied to" }) });
