import type { EmailContent } from "../mail/email-content.ts";
import { recordSmtpBounce } from "../email-events/email-events.service.ts";
import { pauseIfOverThresholds } from "../email-events/send-health.ts";
import {
  classifyDeliveryFailure,
  isUnknownRecipient,
  providerStreak,
  replyWithoutAddress,
  retryDelayMs,
  type DeliveryFailure,
} from "../mail/delivery-failure.ts";
import { personalMessage } from "./newsletter-message.ts";
import {
  claimBatch,
  finishIfSettled,
  giveBack,
  markFailed,
  markRetry,
  markSkipped,
  pausedNow,
  pauseSend,
  renewLease,
  resumeSend,
  sentMarker,
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
}

/** The email a send stores (rendered once at its start); null when the send is gone (its post was deleted). */
async function storedEmail(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<EmailContent | null> {
  const { rows } = await deps.db.query<EmailContent>("SELECT subject, html, text FROM newsletter_sends WHERE id = $1", [sendId]);
  return rows[0] ?? null;
}

type Outcome = "sent" | "failed" | "skipped" | "retried";

/** A hand-over's end: settled, or given back because the provider failed (`paused`), with the failure. */
interface Delivered {
  outcome: Exclude<Outcome, "skipped"> | "paused";
  failure?: DeliveryFailure;
  /** The message's Message-ID (a failure's too: an unknown recipient's bounce names it). */
  messageId?: string;
}

/**
 * Keeps a batch's lease alive while it is delivered: once half the lease has passed on the app's
 * clock, the rows the worker still holds are leased again for `leaseMs`. Checked before each
 * hand-over and every `leaseMs / 4` on the same clock (for a single message that hangs). Rows
 * already settled, or given a retry time, are left alone (`renewLease` only touches rows leased
 * until exactly the lease this worker holds).
 */
function leaseKeeper(deps: Pick<NewsletterDeps, "db" | "clock">, batch: ClaimedRecipient[], leaseMs: number | undefined) {
  const first = batch[0];
  if (!first || !leaseMs) return { renewIfDue: async () => {}, stop: () => {} };
  let heldUntil = first.leaseUntil;
  let renewing: Promise<void> | null = null;
  const renewIfDue = (): Promise<void> => {
    if (renewing) return renewing;
    if (deps.clock.now().getTime() < heldUntil.getTime() - leaseMs / 2) return Promise.resolve();
    const leaseUntil = new Date(deps.clock.now().getTime() + leaseMs);
    renewing = renewLease(
      deps.db,
      batch.map((row) => row.id),
      heldUntil,
      leaseUntil,
    )
      .then(() => {
        heldUntil = leaseUntil;
      })
      .finally(() => {
        renewing = null;
      });
    return renewing;
  };
  const stopped = new AbortController();
  void (async () => {
    while (!stopped.signal.aborted) {
      await deps.clock.sleep(Math.max(250, leaseMs / 4), stopped.signal);
      if (stopped.signal.aborted) return;
      await renewIfDue().catch((error: unknown) => {
        console.warn("[newsletter] lease renewal failed:", error);
      });
    }
  })();
  return { renewIfDue, stop: () => stopped.abort() };
}

/** A claimed batch while it is delivered: its lease is kept alive until every row of it is settled. */
interface HeldBatch {
  renewIfDue(): Promise<void>;
  /** One row settled; the lease keeper stops with the last. */
  settled(): void;
  /** The run is over (rows left unsettled keep their lease until it runs out). */
  stop(): void;
}

function holdBatch(deps: Pick<NewsletterDeps, "db" | "clock">, rows: ClaimedRecipient[], leaseMs: number, onDone: () => void): HeldBatch {
  const lease = leaseKeeper(deps, rows, leaseMs);
  let unsettled = rows.length;
  return {
    renewIfDue: lease.renewIfDue,
    settled: () => {
      if (--unsettled > 0) return;
      lease.stop();
      onDone();
    },
    stop: lease.stop,
  };
}

/**
 * Hands one row's message to the SMTP server and settles the row: sent once the server accepted
 * it, failed or retried by the reply — or, when the provider failed as a whole, given back untouched.
 */
async function deliverOne(
  deps: NewsletterDeps,
  sendId: number,
  email: EmailContent,
  row: ClaimedRecipient,
  markSent: (row: { id: number; messageId: string }) => Promise<void>,
  maxAttempts: number,
): Promise<Delivered> {
  const message = personalMessage(deps, email, {
    sendId,
    subscriberId: row.subscriberId as number,
    address: row.email as string,
    source: row.source,
  });
  try {
    await deps.mail.send(message);
  } catch (error) {
    const failure = classifyDeliveryFailure(error);
    if (failure.kind === "provider") {
      await giveBack(deps.db, [row.id]);
      return { outcome: "paused", failure };
    }
    if (failure.kind === "permanent" || row.attempts >= maxAttempts) {
      await markFailed(deps.db, row.id, failure.reason);
      return { outcome: "failed", failure, messageId: message.messageId as string };
    }
    await markRetry(deps.db, row.id, failure.reason, new Date(deps.now().getTime() + retryDelayMs(row.attempts)));
    return { outcome: "retried", failure };
  }
  await markSent({ id: row.id, messageId: message.messageId as string });
  return { outcome: "sent" };
}

/**
 * Works on one send until nothing is claimable: claims batches under a lease and delivers them,
 * claiming the next while the last rows of one are on their way. Any number of workers may run on the same send at once (each row goes to one of them);
 * a worker that dies leaves its batch to be claimed again once the lease runs out — with the same
 * Message-IDs, so the few messages it had on the wire can be deduplicated. Rows waiting for a retry
 * or leased by another worker are left for a later run.
 */
export async function runSendWorker(deps: NewsletterDeps, sendId: number, options: WorkerOptions = {}): Promise<WorkerRun> {
  const settings = {
    concurrency: Math.max(1, options.concurrency ?? 5),
    batchSize: options.batchSize ?? 100,
    leaseMs: options.leaseMs ?? 120_000,
    maxAttempts: options.maxAttempts ?? 5,
  };
  const run: WorkerRun = { sent: 0, failed: 0, skipped: 0, retried: 0, finished: false };
  const email = await storedEmail(deps, sendId);
  if (!email) return { ...run, finished: true };
  const pause = await pausedNow(deps, sendId);
  if (pause !== null) return { ...run, paused: pause };
  const markSent = sentMarker(deps, email.subject);
  const queue: { row: ClaimedRecipient; batch: HeldBatch }[] = [];
  // Batches with rows not yet settled: a settled batch is let go, so a run holds at most two.
  const held = new Set<HeldBatch>();
  let exhausted = false;
  let failure: { error: unknown } | undefined;
  let claiming: Promise<void> | null = null;
  // Set once the provider failed as a whole: the slots stop, and what is left goes back pending.
  let pausedFor: string | undefined;
  let resumed = false;
  // The same refusal for recipient after recipient is the provider's (a suspended account, say).
  const streak = providerStreak<number>();

  // What one hand-over tells about the provider: a success ends a pause; a provider failure, or the
  // last of a run of identical refusals (whose rows go back pending), pauses the send.
  const learn = async (row: ClaimedRecipient, delivered: Delivered) => {
    const { outcome, failure } = delivered;
    if (outcome === "paused") {
      pausedFor ??= failure?.reason ?? "";
      return;
    }
    run[outcome] += 1;
    if (outcome === "sent") {
      streak.reset();
      if (!resumed) {
        resumed = true;
        await resumeSend(deps.db, sendId);
      }
    }
    if (outcome !== "failed" || failure?.kind !== "permanent") return;
    const refusedAlike = streak.record(row.id, row.email ?? "", failure);
    if (!refusedAlike) {
      // "550 5.1.1 user unknown": the address is dead, the subscriber `bounced` (and the send may stop itself).
      if (isUnknownRecipient(failure) && row.subscriberId !== null && delivered.messageId) {
        const bouncedSend = await recordSmtpBounce(deps, {
          ref: `newsletter:${String(row.id)}`,
          subscriberId: row.subscriberId,
          sendId,
          messageId: delivered.messageId,
          reason: failure.reason,
        });
        if (bouncedSend !== undefined) await pauseIfOverThresholds(deps, bouncedSend);
      }
      return;
    }
    await giveBack(deps.db, refusedAlike);
    run.failed -= refusedAlike.length;
    pausedFor ??= failure.reason;
  };

  // One claim at a time. Someone who left since the start is settled here (skipped); the rest
  // join the queue under the batch's lease.
  const claimNext = (): Promise<void> =>
    (claiming ??= (async () => {
      if (pausedFor !== undefined || (options.stopClaimingAt && deps.now() >= options.stopClaimingAt)) {
        exhausted = true;
        return;
      }
      const batch = await claimBatch(deps, sendId, settings.batchSize, settings.leaseMs);
      if (batch.length === 0) {
        exhausted = true;
        return;
      }
      const gone = batch.filter((row) => row.subscriberId === null || row.email === null || row.subscriberStatus !== "active");
      await markSkipped(
        deps.db,
        gone.map((row) => row.id),
      );
      run.skipped += gone.length;
      const live = batch.filter((row) => !gone.includes(row));
      if (live.length === 0) return;
      const batchHeld = holdBatch(deps, live, settings.leaseMs, () => held.delete(batchHeld));
      held.add(batchHeld);
      for (const row of live) queue.push({ row, batch: batchHeld });
    })().finally(() => {
      claiming = null;
    }));

  // Each slot keeps one message on its way. The next batch is claimed while the last rows of this
  // one are still delivered, so no slot waits at a batch's end.
  const slot = async () => {
    while (!failure && pausedFor === undefined) {
      if (queue.length <= settings.concurrency && !exhausted && !claiming) {
        claimNext().catch((error: unknown) => (failure ??= { error }));
      }
      const next = queue.shift();
      if (!next) {
        if (exhausted) return;
        await claiming?.catch(() => undefined);
        continue;
      }
      try {
        await next.batch.renewIfDue();
        await learn(next.row, await deliverOne(deps, sendId, email, next.row, markSent, settings.maxAttempts));
      } catch (error) {
        failure ??= { error };
      } finally {
        next.batch.settled();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: settings.concurrency }, slot));
    // A claim still under way when a failure stopped the slots: its batch's lease keeper is stopped below.
    await (claiming as Promise<void> | null)?.catch(() => undefined);
  } finally {
    for (const batch of held) batch.stop();
  }
  if (failure) throw failure.error;
  if (pausedFor !== undefined) {
    // Claimed rows the slots never reached go back too; the send waits out its pause.
    await giveBack(
      deps.db,
      queue.splice(0).map((entry) => entry.row.id),
    );
    const reason = replyWithoutAddress(pausedFor);
    await pauseSend(deps, sendId, reason);
    return { ...run, paused: reason };
  }
  run.finished = await finishIfSettled(deps, sendId);
  return run;
}
