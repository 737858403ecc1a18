import { z } from "zod";
import { subscriberStatuses } from "./subscriber.schema.ts";
import { subscriberTagUseSchema } from "./subscriber-tags.schema.ts";

/** A subscriber that was erased meanwhile, or never was. */
export const subscriberGoneMessage = "This subscriber no longer exists.";

/**
 * Everything held about one person (their copy under the right of access): their row, each consent
 * they gave, each email sent to them, and each one attempted or still queued.
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
    /** The name they show as a reader (issue 44), null until they chose one. */
    displayName: z.string().nullable(),
  }),
  /** What they chose to get (issue 42 point 7): everything or their topics, how often, and when they last changed it. */
  preferences: z.object({
    everything: z.boolean(),
    frequency: z.enum(["each", "weekly"]),
    updatedAt: z.iso.datetime().nullable().meta({ description: "When they last saved the preference page; null: never" }),
    topics: z.array(z.object({ slug: z.string(), name: z.string(), followedAt: z.iso.datetime() })),
    /** Each weekly digest claimed for them: the week's end and when it was queued. */
    digests: z.array(z.object({ weekEnds: z.iso.datetime(), queuedAt: z.iso.datetime() })),
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
  /**
   * Every newsletter meant for them, whatever became of it: sent (also in `emails`), failed with the
   * server's reply, pending, or skipped (they had left when their turn came).
   */
  newsletters: z.array(
    z.object({
      subject: z.string(),
      status: z.enum(["pending", "sent", "failed", "skipped"]),
      messageId: z.string().nullable(),
      sentAt: z.iso.datetime().nullable(),
      attempts: z.number().int(),
      lastError: z.string().nullable(),
    }),
  ),
  /** Emails queued for them and not (yet) accepted by the SMTP server: waiting or given up on. */
  unsentEmails: z.array(
    z.object({
      kind: z.string(),
      status: z.enum(["pending", "failed"]),
      messageId: z.string(),
      queuedAt: z.iso.datetime(),
      attempts: z.number().int(),
      lastError: z.string().nullable(),
    }),
  ),
  /**
   * What their mail provider reported back (issue 28): bounces, spam complaints and deliveries,
   * with the provider (`smtp`: refused at send time), its words and the time. Part of the consent
   * history: a bounce or complaint is why they receive nothing.
   */
  emailEvents: z.array(
    z.object({
      type: z.enum(["hard_bounce", "soft_bounce", "complaint", "delivered"]),
      provider: z.string(),
      reason: z.string().nullable(),
      occurredAt: z.iso.datetime(),
    }),
  ),
  /**
   * The sequences they are in (issue 31): which (`welcome` or `download-{resourceId}`), when they
   * joined (null: they asked for the resource and have not confirmed yet) and finished, and each
   * step queued for them with the subject it went with and what became of its email.
   */
  sequences: z.array(
    z.object({
      key: z.string(),
      enrolledAt: z.iso.datetime().nullable(),
      finishedAt: z.iso.datetime().nullable(),
      steps: z.array(
        z.object({
          subject: z.string(),
          queuedAt: z.iso.datetime(),
          /** The outbox's word for its email: pending, sent or failed (null: no email record is left). */
          status: z.enum(["pending", "sent", "failed"]).nullable(),
          messageId: z.string().nullable(),
          sentAt: z.iso.datetime().nullable(),
        }),
      ),
    }),
  ),
  /** The owner's labels on them (subscriber tags), with when and why each was set; erase removes them. */
  tags: z.array(subscriberTagUseSchema),
  /** Their poll answers (issue 42 points 6 and 7): the question, the answer held, when first given and last changed; erase removes them. */
  pollAnswers: z.array(
    z.object({
      poll: z.number().int(),
      question: z.string(),
      answer: z.string(),
      answeredAt: z.iso.datetime(),
      updatedAt: z.iso.datetime(),
    }),
  ),
  /** What they paid through Stripe with this address (issue 47 point 7): kept for accounting after an erase, without the address. */
  payments: z.array(
    z.object({
      kind: z.string(),
      status: z.string(),
      amount: z.number().int().meta({ description: "Minor units, as Stripe has it" }),
      currency: z.string(),
      item: z.string(),
      paidAt: z.iso.datetime(),
      checkoutSessionId: z.string(),
    }),
  ),
  /** Their supporter memberships (issue 47 point 4): Stripe's status, the price, when it began and ended. */
  memberships: z.array(
    z.object({
      status: z.string(),
      interval: z.string().nullable(),
      amount: z.number().int().meta({ description: "Minor units a period" }),
      currency: z.string(),
      startedAt: z.iso.datetime(),
      endedAt: z.iso.datetime().nullable(),
      currentPeriodEnd: z.iso.datetime().nullable(),
    }),
  ),
  /** Their reader sign-ins (issue 44): when each email's link and code were made, ran out and were used; never a token or code. */
  readerSignIns: z.array(z.object({ createdAt: z.iso.datetime(), expiresAt: z.iso.datetime(), usedAt: z.iso.datetime().nullable() })),
  /** The browsers they are signed in on as a reader: when each signed in, was last seen and ends; never the session's secret. */
  readerSessions: z.array(z.object({ createdAt: z.iso.datetime(), lastSeenAt: z.iso.datetime(), expiresAt: z.iso.datetime() })),
  /** Their comments (issue 44): the post, the text as written, its state and times. No address, no IP is kept with a comment. */
  comments: z.array(
    z.object({
      id: z.number().int(),
      post: z.string().meta({ description: "The post's slug" }),
      postTitle: z.string(),
      body: z.string(),
      status: z.enum(["held", "approved", "hidden", "spam"]),
      createdAt: z.iso.datetime(),
      editedAt: z.iso.datetime().nullable(),
    }),
  ),
  /** Whether they get an email when someone replies to their comments. */
  commentReplyNotices: z.boolean(),
  exportedAt: z.iso.datetime(),
});

export type SubscriberData = z.output<typeof subscriberDataSchema>;
