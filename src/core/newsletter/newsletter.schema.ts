import { z } from "zod";
import { audienceSegmentSchema } from "../segments/segment.schema.ts";
import { emailSchema } from "../subscribers/subscriber.schema.ts";

const postIdSchema = z
  .number({ error: "postId must be a post's id" })
  .int("postId must be a post's id")
  .positive("postId must be a post's id")
  // A post id is an `integer`: one past its range names no post (and must not reach a query).
  .max(2_147_483_647, "postId must be a post's id");

/** The body of `POST /api/newsletter/sends`: the published post to send to the list, now or at `sendAt`. */
export const startSendSchema = z.object({
  postId: postIdSchema,
  sendAt: z.iso
    .datetime({ offset: true, error: "Send at must be a date and time (ISO 8601)" })
    .transform((value) => new Date(value))
    .optional()
    .meta({ description: "When to start (ISO 8601, e.g. 2026-03-02T07:00:00+01:00): the send is `scheduled` until then. Absent: now" }),
  segment: audienceSegmentSchema.optional(),
});

/** The body of `POST /api/newsletter/sends/test`: one preview of a post's email to one address. */
export const testSendSchema = z.object({ postId: postIdSchema, email: emailSchema });

export const sendStatuses = ["scheduled", "waiting", "preparing", "queued", "sending", "sent", "failed", "paused", "cancelled"] as const;

/** A count of what came back, as a share: of the messages handed over (bounces) or delivered (complaints, unsubscribes). */
const rateSchema = z.number().min(0).meta({ description: "A fraction: 0.003 is 0.3 %" });

/** A send and where it stands: sent + failed + skipped + pending = total, always. */
export const newsletterSendSchema = z.object({
  id: z.number().int(),
  postId: z.number().int(),
  /**
   * scheduled until its `sendAt`; waiting until the post's public page answers 200 (every send
   * starts only then: `statusReason` says why once it has waited 15 minutes); preparing while its
   * recipients are fixed in batches (`prepared` says how many so far; `total` and every count stay 0
   * until the last batch is fixed); queued (the recipients fixed) until a worker takes it; sending; sent once no recipient is pending (some may have
   * failed); paused when its complaints or hard bounces passed the owner's thresholds
   * (`pausedReason` says which) until the owner resumes or cancels it; cancelled (its pending
   * recipients skipped).
   */
  status: z.enum(sendStatuses),
  /** Recipients fixed: 0 until the send has fixed them all (while it is `preparing`). */
  total: z.number().int(),
  /** Recipients fixed so far: grows while the send is `preparing`, then equals `total`. */
  prepared: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  /** Unsubscribed or erased between the start and their turn: nothing was sent. */
  skipped: z.number().int(),
  pending: z.number().int(),
  createdAt: z.iso.datetime(),
  /** The time the owner chose ("Send at"); null: as soon as the post's page is live. */
  sendAt: z.iso.datetime().nullable(),
  /** Why it still waits (the post's page not live 15 minutes after it was due), or why a due send ended with nobody to send to. */
  statusReason: z.string().nullable(),
  /** The audience it was made for, as an expression (a saved segment's as it was then); null: everyone. Weekly readers are never in it (decision 0072). */
  segment: z.string().nullable(),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
  /**
   * Set while the mail provider fails as a whole (connection, login, a suspended account): every
   * recipient stays pending and the send tries again on its own at `pausedUntil`, then goes on.
   */
  pausedReason: z.string().nullable(),
  pausedUntil: z.iso.datetime().nullable(),
  /** Delivered: sent, less the messages a provider bounced for good afterwards. */
  delivered: z.number().int(),
  /** Hard bounces: refused as unknown at send time, or reported by the provider afterwards. */
  bounced: z.number().int(),
  softBounced: z.number().int(),
  /** Spam complaints reported by the provider. */
  complained: z.number().int(),
  /** Recipients who unsubscribed after this send and before the next one reached them. */
  unsubscribed: z.number().int(),
  rates: z.object({ delivered: rateSchema, bounced: rateSchema, softBounced: rateSchema, complained: rateSchema, unsubscribed: rateSchema }),
});

export type NewsletterSend = z.output<typeof newsletterSendSchema>;

/** A recipient the SMTP server refused for good (or after every retry), with its reply. */
export const failedRecipientSchema = z.object({ email: z.string(), error: z.string().nullable(), attempts: z.number().int() });

export type FailedRecipient = z.output<typeof failedRecipientSchema>;

export const testSentSchema = z.object({ sent: z.literal(true) });
