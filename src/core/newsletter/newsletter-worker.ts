import { recordSmtpBounce } from "../email-events/email-events.service.ts";
import { pauseIfOverThresholds } from "../email-events/send-health.ts";
import { giveUpAfterAttempts, runDeliveries, type DeliveryKind } from "../mail/delivery-engine.ts";
import { isUnknownRecipient } from "../mail/delivery-failure.ts";
import type { EmailContent } from "../mail/email-content.ts";
import { newsletterMessageId, personalMessage, topicThatSent, type PostTopic } from "./newsletter-message.ts";
import {
  claimBatch,
  finishIfSettled,
  pausedNow,
  pauseSend,
  resumeSend,
  sendStopped,
  sentMarker,
  skipCancelled,
  type ClaimedRecipient,
} from "./newsletter-queue.ts";
import type { NewsletterDeps } from "./newsletter-sends.ts";

export interface WorkerOptions {
  /** Messages handed to the SMTP server at once (match the transport's pool size). Default 5. */
  concurrency?: number;
  /** Rows claimed at a time (the next batch is claimed while the last rows of one are delivered). Default 100. */
  batchSize?: number;
  /**
   * How long a claimed batch is the worker's. Default 2 minutes. A batch that takes longer (a slow
   * SMTP server) keeps its rows: the worker renews the lease of the rows it still holds every
   * `leaseMs / 2` while delivering, so no other worker claims a row still in flight.
   */
  leaseMs?: number;
  /** A transient failure after this many hand-overs is final. Default 5. */
  maxAttempts?: number;
  /** Stop claiming once this time has passed (a Background Function's budget). */
  stopClaimingAt?: Date;
}

/** What a worker run did, and whether the send still has work left. */
export interface WorkerRun {
  sent: number;
  failed: number;
  skipped: number;
  retried: number;
  /** True once no row of the send is pending. */
  finished: boolean;
  /** Set when the provider failed as a whole and the send paused (or was found paused): the reason. */
  paused?: string;
  /**
   * Set when the send was paused or cancelled while this run worked (the owner, its figures, another
   * worker's provider pause): why it stopped. Nothing more was handed over; the rows it had claimed
   * went back pending (a cancelled send's are skipped).
   */
  stopped?: string;
}

/** The email a send stores (rendered once at its start); null when the send is gone (its post was deleted). */
async function storedEmail(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<EmailContent | null> {
  const { rows } = await deps.db.query<EmailContent>("SELECT subject, html, text FROM newsletter_sends WHERE id = $1", [sendId]);
  return rows[0] ?? null;
}

/** The topics of a send's post, in the post's order (its first is the one an "everything" reader is offered to leave). */
async function sendTopics(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<PostTopic[]> {
  const { rows } = await deps.db.query<PostTopic>(
    `SELECT t.id, t.slug, t.name FROM newsletter_sends ns JOIN post_tags pt ON pt.post_id = ns.post_id JOIN tags t ON t.id = pt.tag_id AND t.topic
      WHERE ns.id = $1 ORDER BY pt.position, t.id`,
    [sendId],
  );
  return rows;
}

/**
 * A send's recipients as a kind of delivery (src/core/mail/delivery-engine.ts): the email rendered
 * once at the start and personalised per row, the Message-ID derived from the (send, subscriber)
 * pair, given up after `maxAttempts` hand-overs, paused per send.
 */
function recipientKind(
  deps: NewsletterDeps,
  sendId: number,
  email: EmailContent,
  topics: PostTopic[],
  maxAttempts: number,
): DeliveryKind<ClaimedRecipient, string> {
  const markSent = sentMarker(deps, email.subject);
  return {
    table: "newsletter_recipients",
    claim: (size, leaseMs) => claimBatch(deps, sendId, size, leaseMs),
    // Someone who unsubscribed or was erased since the start is skipped at the claim.
    skipAtClaim: (row) => row.subscriberId === null || row.email === null || row.subscriberStatus !== "active",
    async deliver(row) {
      const message = personalMessage(deps, email, {
        sendId,
        subscriberId: row.subscriberId as number,
        address: row.email as string,
        source: row.source,
        topic: topicThatSent(topics, { everything: row.followsEverything, topicIds: row.topicIds }),
      });
      await deps.mail.send(message);
      return message.messageId as string;
    },
    markSent: (row, messageId) => markSent({ id: row.id, messageId }),
    retry: giveUpAfterAttempts(maxAttempts),
    address: (row) => row.email ?? "",
    // "550 5.1.1 user unknown": the address is dead, the subscriber `bounced` (and the send may stop itself).
    async onUnknownRecipient(row, failure) {
      if (!isUnknownRecipient(failure) || row.subscriberId === null) return;
      const bouncedSend = await recordSmtpBounce(deps, {
        ref: `newsletter:${String(row.id)}`,
        subscriberId: row.subscriberId,
        sendId,
        messageId: newsletterMessageId(deps, sendId, row.subscriberId),
        reason: failure.reason,
      });
      if (bouncedSend !== undefined) await pauseIfOverThresholds(deps, bouncedSend);
    },
    // Read before each hand-over: a pause or cancel stops the rows claimed already (issue 40, decision 0058).
    stopped: () => sendStopped(deps, sendId),
    pause: {
      now: () => pausedNow(deps, sendId),
      start: (reason) => pauseSend(deps, sendId, reason),
      end: () => resumeSend(deps.db, sendId),
    },
  };
}

/**
 * Works on one send until nothing is claimable: the delivery engine claims batches under a lease
 * and delivers them, claiming the next while the last rows of one are on their way. Any number of
 * workers may run on the same send at once (each row goes to one of them); a worker that dies
 * leaves its batch to be claimed again once the lease runs out — with the same Message-IDs, so the
 * few messages it had on the wire can be deduplicated. Rows waiting for a retry or leased by
 * another worker are left for a later run.
 */
export async function runSendWorker(deps: NewsletterDeps, sendId: number, options: WorkerOptions = {}): Promise<WorkerRun> {
  const email = await storedEmail(deps, sendId);
  if (!email) return { sent: 0, failed: 0, skipped: 0, retried: 0, finished: true };
  const { paused, stopped, ...counts } = await runDeliveries(
    deps,
    recipientKind(deps, sendId, email, await sendTopics(deps, sendId), options.maxAttempts ?? 5),
    {
      concurrency: options.concurrency ?? 5,
      batchSize: options.batchSize ?? 100,
      leaseMs: options.leaseMs ?? 120_000,
      stopClaimingAt: options.stopClaimingAt,
    },
  );
  if (paused !== undefined) return { ...counts, finished: false, paused };
  if (stopped !== undefined) {
    // Cancelled while this run held rows: those it gave back get nothing either.
    const cancelled = await skipCancelled(deps, sendId);
    return { ...counts, finished: cancelled, stopped };
  }
  return { ...counts, finished: await finishIfSettled(deps, sendId) };
}
