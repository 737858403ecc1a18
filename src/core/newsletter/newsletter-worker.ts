import type { EmailContent } from "../mail/email-content.ts";
import { classifyDeliveryFailure, personalMessage } from "./newsletter-message.ts";
import {
  claimBatch,
  finishIfSettled,
  markFailed,
  markRetry,
  markSkipped,
  renewLease,
  sentMarker,
  type ClaimedRecipient,
} from "./newsletter-queue.ts";
import type { NewsletterDeps } from "./newsletter-sends.ts";

export interface WorkerOptions {
  /** Messages handed to the SMTP server at once (match the transport's pool size). Default 5. */
  concurrency?: number;
  /** Rows claimed at a time. Default 50. */
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
}

/** Waits before a transient failure is tried again: 1, 2, 4, 8… minutes, at most 30. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
}

/** The email a send stores (rendered once at its start); null when the send is gone (its post was deleted). */
async function storedEmail(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<EmailContent | null> {
  const { rows } = await deps.db.query<EmailContent>("SELECT subject, html, text FROM newsletter_sends WHERE id = $1", [sendId]);
  return rows[0] ?? null;
}

type Outcome = "sent" | "failed" | "skipped" | "retried";

/**
 * Keeps a batch's lease alive while it is delivered: once half the lease has passed on the app's
 * clock (`now`), the rows the worker still holds are leased again for `leaseMs`. Checked before
 * each hand-over and on a timer every `leaseMs / 4` (for a single message that hangs). Rows already
 * settled, or given a retry time, are left alone (`renewLease` only touches rows leased until
 * exactly the lease this worker holds).
 */
function leaseKeeper(deps: Pick<NewsletterDeps, "db" | "now">, batch: ClaimedRecipient[], leaseMs: number | undefined) {
  const first = batch[0];
  if (!first || !leaseMs) return { renewIfDue: async () => {}, stop: () => {} };
  let heldUntil = first.leaseUntil;
  let renewing: Promise<void> | null = null;
  const renewIfDue = (): Promise<void> => {
    if (renewing) return renewing;
    if (deps.now().getTime() < heldUntil.getTime() - leaseMs / 2) return Promise.resolve();
    const leaseUntil = new Date(deps.now().getTime() + leaseMs);
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
  const timer = setInterval(
    () => {
      renewIfDue().catch((error: unknown) => {
        console.warn("[newsletter] lease renewal failed:", error);
      });
    },
    Math.max(250, leaseMs / 4),
  );
  timer.unref();
  return { renewIfDue, stop: () => clearInterval(timer) };
}

/**
 * Sends one claimed batch, `concurrency` messages at a time. Each row is settled on its own: sent
 * once the SMTP server accepted it, skipped when the subscriber left, failed or retried by the reply.
 */
export async function deliverBatch(
  deps: NewsletterDeps,
  sendId: number,
  email: EmailContent,
  batch: ClaimedRecipient[],
  options: Required<Pick<WorkerOptions, "concurrency" | "maxAttempts">> & Pick<WorkerOptions, "leaseMs">,
): Promise<Outcome[]> {
  const gone = batch.filter((row) => row.subscriberId === null || row.email === null || row.subscriberStatus !== "active");
  await markSkipped(
    deps.db,
    gone.map((row) => row.id),
  );
  const outcomes: Outcome[] = gone.map(() => "skipped");
  const queue = batch.filter((row) => !gone.includes(row));
  const markSent = sentMarker(deps, email.subject);
  const lease = leaseKeeper(deps, queue, options.leaseMs);
  const deliverOne = async (row: ClaimedRecipient): Promise<Outcome> => {
    await lease.renewIfDue();
    const message = personalMessage(deps, email, { sendId, subscriberId: row.subscriberId as number, address: row.email as string });
    try {
      await deps.mail.send(message);
    } catch (error) {
      const failure = classifyDeliveryFailure(error);
      if (failure.kind === "permanent" || row.attempts >= options.maxAttempts) {
        await markFailed(deps.db, row.id, failure.reason);
        return "failed";
      }
      await markRetry(deps.db, row.id, failure.reason, new Date(deps.now().getTime() + retryDelayMs(row.attempts)));
      return "retried";
    }
    await markSent({ id: row.id, messageId: message.messageId as string });
    return "sent";
  };
  let next = 0;
  const runner = async () => {
    while (next < queue.length) {
      const row = queue[next++] as ClaimedRecipient;
      outcomes.push(await deliverOne(row));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, queue.length)) }, runner));
  } finally {
    lease.stop();
  }
  return outcomes;
}

/**
 * Works on one send until nothing is claimable: claims a batch under a lease, delivers it, and
 * again. Any number of workers may run on the same send at once (each row goes to one of them);
 * a worker that dies leaves its batch to be claimed again once the lease runs out — with the same
 * Message-IDs, so the few messages it had on the wire can be deduplicated. Rows waiting for a retry
 * or leased by another worker are left for a later run.
 */
export async function runSendWorker(deps: NewsletterDeps, sendId: number, options: WorkerOptions = {}): Promise<WorkerRun> {
  const settings = {
    concurrency: options.concurrency ?? 5,
    batchSize: options.batchSize ?? 50,
    leaseMs: options.leaseMs ?? 120_000,
    maxAttempts: options.maxAttempts ?? 5,
  };
  const run: WorkerRun = { sent: 0, failed: 0, skipped: 0, retried: 0, finished: false };
  const email = await storedEmail(deps, sendId);
  if (!email) return { ...run, finished: true };
  for (;;) {
    if (options.stopClaimingAt && deps.now() >= options.stopClaimingAt) break;
    const batch = await claimBatch(deps, sendId, settings.batchSize, settings.leaseMs);
    if (batch.length === 0) break;
    for (const outcome of await deliverBatch(deps, sendId, email, batch, settings)) run[outcome] += 1;
  }
  run.finished = await finishIfSettled(deps, sendId);
  return run;
}
