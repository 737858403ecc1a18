import { z } from "zod";
import { subscriberStatuses } from "./subscriber.schema.ts";

/** A subscriber that was erased meanwhile, or never was. */
export const subscriberGoneMessage = "This subscriber no longer exists.";

/**
 * Everything held about one person (their copy under the right of access): their row, each consent
 * they gave, and each email sent to them.
 */
export const subscriberDataSchema = z.object({
  subscriber: z.object({
    id: z.number().int(),
    email: z.string(),
    status: z.enum(subscriberStatuses),
    source: z.string(),
    subscribedAt: z.iso.datetime(),
    confirmedAt: z.iso.datetime().nullable(),
    unsubscribedAt: z.iso.datetime().nullable(),
  }),
  consents: z.array(
    z.object({
      source: z.string(),
      wording: z.string(),
      askedAt: z.iso.datetime(),
      confirmedAt: z.iso.datetime().nullable(),
    }),
  ),
  emails: z.array(
    z.object({
      kind: z.string(),
      subject: z.string(),
      messageId: z.string(),
      sentAt: z.iso.datetime(),
      /** The resource a download email carried, if any. */
      resourceId: z.number().int().nullable(),
    }),
  ),
  exportedAt: z.iso.datetime(),
});

export type SubscriberData = z.output<typeof subscriberDataSchema>;
