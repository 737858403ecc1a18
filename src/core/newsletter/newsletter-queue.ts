import { recordWebhookEvent } from "../webhooks/webhook-events.ts";
import { groupCommit } from "../db/group-commit.ts";
import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { claimLeased, leasedRows, type LeasedRow } from "../mail/delivery-engine.ts";
import { pauseDelayMs } from "../mail/delivery-failure.ts";

/**
 * A send's recipients as the delivery engine's rows (src/core/mail/delivery-engine.ts, decision
 * 0044): the claim, lease renewal, failed / retry / skipped marks and give-back are the engine's,
 * over `newsletter_recipients`; what is the newsletter's own is here (which rows a send claims,
 * the sent mark with its export record, the send's pause and end).
 */
const recipients = leasedRows("newsletter_recipients");

/** A recipient row handed to a worker, with the subscriber as they are now (checked again at claim). */
export interface ClaimedRecipient extends LeasedRow {
  /** The row's id (stays valid when an erase clears `subscriberId`). */
  id: number;
  subscriberId: number | null;
  /** Null when the subscriber was erased since the start. */
  email: string | null;
  /** The subscriber's status now: only "active" gets the email. */
  subscriberStatus: string | null;
  /** How the subscriber joined (`subscribers.source`): the footer's reason says so. */
  source: string | null;
  /** Whether the reader follows everything, and the topics (tag ids) they follow. */
  followsEverything: boolean;
  topicIds: number[];
  /** How many times the row was handed over, this time included. */
  attempts: number;
  /** The lease this claim set: the row is the caller's until then (or until `renewLease` extends it). */
  leaseUntil: Date;
}

interface ClaimRow {
  subscriber_id: number | null;
  email: string | null;
  subscriber_status: string | null;
  source: string | null;
  follows_everything: boolean | null;
  topic_ids: number[] | null;
}

/**
 * Hands up to `size` pending rows of a send to the caller for `leaseMs` (the engine's claim): rows
 * another worker is claiming right now are passed over, rows under a live lease are left alone, and
 * rows whose lease ran out (their worker crashed or stalled) are claimable again. The subscriber is
 * read as they are now. Time is the caller's clock (`now`), so tests can move it.
 */
export async function claimBatch(
  deps: { db: SqlQueryable; now: () => Date },
  sendId: number,
  size: number,
  leaseMs: number,
): Promise<ClaimedRecipient[]> {
  const rows = await claimLeased<ClaimRow>(
    deps,
    {
      table: "newsletter_recipients",
      // A send paused by its figures or cancelled hands out nothing more; rows claimed already stop
      // too, at their next hand-over (`sendStopped`).
      due: "q.send_id = $4 AND EXISTS (SELECT 1 FROM newsletter_sends ns WHERE ns.id = $4 AND ns.status IN ('queued', 'sending'))",
      params: [sendId],
      pick: ["subscriber_id"],
      join: "LEFT JOIN subscribers s ON s.id = picked.subscriber_id",
      // What the reader follows: the footer's "Unsubscribe from <topic>" names the topic that sent the post.
      returning: `q.subscriber_id, s.email, s.status AS subscriber_status, s.source, s.follows_everything,
        ARRAY(SELECT st.tag_id FROM subscriber_topics st WHERE st.subscriber_id = q.subscriber_id) AS topic_ids`,
    },
    size,
    leaseMs,
  );
  if (rows.length > 0) {
    await deps.db.query("UPDATE newsletter_sends SET status = 'sending', started_at = $2 WHERE id = $1 AND status = 'queued'", [sendId, deps.now()]);
  }
  return rows.map((row) => ({
    id: row.id,
    subscriberId: row.subscriber_id,
    email: row.email,
    subscriberStatus: row.subscriber_status,
    source: row.source,
    followsEverything: row.follows_everything ?? true,
    topicIds: row.topic_ids ?? [],
    attempts: row.attempts,
    leaseUntil: row.leaseUntil,
  }));
}

/** Extends the lease of rows a worker still holds (the engine's renewal). */
export const renewLease = recipients.renew;

type SentMark = { id: number; messageId: string; subject: string; at: Date };

async function writeSentMarks(db: SqlQueryable, marks: SentMark[]): Promise<void> {
  if (marks.length === 0) return;
  await db.query(
    `WITH marked AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[]) AS m (id, message_id, subject, at)),
     done AS (
       UPDATE newsletter_recipients r
          SET status = 'sent', sent_at = m.at, message_id = m.message_id, lease_until = NULL, last_error = NULL
         FROM marked m
        WHERE r.id = m.id AND r.status = 'pending'
       RETURNING r.subscriber_id, r.message_id, m.subject, m.at
     )
     INSERT INTO subscriber_emails (subscriber_id, kind, subject, message_id, sent_at)
     SELECT subscriber_id, 'newsletter', subject, message_id, at FROM done WHERE subscriber_id IS NOT NULL`,
    [marks.map((mark) => mark.id), marks.map((mark) => mark.messageId), marks.map((mark) => mark.subject), marks.map((mark) => mark.at)],
  );
}

/**
 * Marks rows sent — only after the SMTP server accepted each — and records the email for each
 * subscriber's export, in one statement for the whole group.
 */
export async function markSent(
  deps: { db: SqlQueryable; now: () => Date },
  accepted: { id: number; messageId: string }[],
  subject: string,
): Promise<void> {
  const at = deps.now();
  await writeSentMarks(
    deps.db,
    accepted.map((row) => ({ ...row, subject, at })),
  );
}

/**
 * Group commit for `markSent` (src/core/db/group-commit.ts): each caller waits until its row is
 * marked, and the rows accepted while one statement runs are marked together by the next. A worker
 * with N messages in flight then writes about one statement per N messages, and no more than N
 * accepted messages are ever unmarked — the most a crash can duplicate.
 */
const groupedSentMarks = groupCommit<SentMark>(writeSentMarks);

export function sentMarker(deps: { db: SqlQueryable; now: () => Date }, subject: string): (row: { id: number; messageId: string }) => Promise<void> {
  return (row) => groupedSentMarks(deps.db, { ...row, subject, at: deps.now() });
}

/** Someone who unsubscribed or was erased since the start: nothing is sent, and they count as skipped. */
export const markSkipped = recipients.skip;

/** A permanent failure (a 5xx reply): never retried by the worker, with the server's reply kept. */
export const markFailed = recipients.fail;

/** A transient failure: the row stays pending, leased until `retryAt`, when any worker may try again. */
export const markRetry = recipients.retry;

/**
 * Ends a send whose rows are all settled (none pending): status "sent", with the time. Returns
 * whether the send is finished (now or before).
 */
export async function finishIfSettled(deps: { db: SqlExecutor; now: () => Date }, sendId: number): Promise<boolean> {
  const { rows } = await deps.db.query<{ pending: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM newsletter_recipients WHERE send_id = $1 AND status = 'pending') AS pending",
    [sendId],
  );
  if (rows[0]?.pending) return false;
  await deps.db.transaction(async (tx) => {
    const { rows: done } = await tx.query<{ id: number; post_id: number | null; subject: string; sent: number; failed: number }>(
      "UPDATE newsletter_sends SET status = 'sent', finished_at = $2 WHERE id = $1 AND status IN ('queued', 'sending') RETURNING id, post_id, subject, count_sent AS sent, count_failed AS failed",
      [sendId, deps.now()],
    );
    const send = done[0];
    if (send)
      await recordWebhookEvent(tx, deps, "newsletter.sent", {
        sendId: send.id,
        postId: send.post_id,
        subject: send.subject,
        sent: send.sent,
        failed: send.failed,
      });
  });
  return true;
}

/** Rows a provider failure interrupted go back as they were before their claim (the engine's give-back). */
export const giveBack = recipients.giveBack;

/**
 * Pauses a send after a failure of the whole provider: no worker takes it up before
 * `paused_until` (1 minute, then 2 for each pause in a row: `pauseDelayMs`), and `paused_reason` is
 * what the dashboard shows. Several messages failing at once pause it once: a pause still running
 * is kept.
 */
export async function pauseSend(
  deps: { db: SqlQueryable; now: () => Date; providerPauseMs?: number | undefined },
  sendId: number,
  reason: string,
): Promise<void> {
  const now = deps.now();
  const { rows } = await deps.db.query<{ pauses: number }>("SELECT pauses FROM newsletter_sends WHERE id = $1", [sendId]);
  const until = new Date(now.getTime() + pauseDelayMs(rows[0]?.pauses ?? 0, deps.providerPauseMs));
  await deps.db.query(
    `UPDATE newsletter_sends SET paused_reason = $2, paused_until = $3, pauses = pauses + 1
      WHERE id = $1 AND status <> 'paused' AND (paused_until IS NULL OR paused_until <= $4)`,
    [sendId, reason, until, now],
  );
}

/** A message went through: the provider is back, so the send's pause is over and its backoff starts over. */
export async function resumeSend(db: SqlQueryable, sendId: number): Promise<void> {
  // A send its figures paused keeps its reason until the owner resumes or cancels it.
  await db.query(
    "UPDATE newsletter_sends SET paused_reason = NULL, paused_until = NULL, pauses = 0 WHERE id = $1 AND paused_reason IS NOT NULL AND status <> 'paused'",
    [sendId],
  );
}

/** The reason a send waits out a pause now (no worker claims its rows until then), or null. */
export async function pausedNow(deps: { db: SqlQueryable; now: () => Date }, sendId: number): Promise<string | null> {
  const { rows } = await deps.db.query<{ paused_reason: string | null }>(
    "SELECT paused_reason FROM newsletter_sends WHERE id = $1 AND paused_until > $2",
    [sendId, deps.now()],
  );
  return rows[0]?.paused_reason ?? null;
}

/**
 * Why a send's rows must not go out now, read before each hand-over (the engine's `stopped`): the
 * send is gone, paused (the owner, its figures), cancelled or finished, or waits out a provider
 * pause another worker started. One primary-key read.
 */
export async function sendStopped(deps: { db: SqlQueryable; now: () => Date }, sendId: number): Promise<string | undefined> {
  const { rows } = await deps.db.query<{ status: string; paused_reason: string | null; waiting: boolean }>(
    "SELECT status, paused_reason, coalesce(paused_until > $2, false) AS waiting FROM newsletter_sends WHERE id = $1",
    [sendId, deps.now()],
  );
  const send = rows[0];
  if (!send) return "The send was deleted";
  if (send.status !== "queued" && send.status !== "sending") return send.paused_reason ?? `The send is ${send.status}`;
  if (send.waiting) return send.paused_reason ?? "The send is paused";
  return undefined;
}

/**
 * What `cancelSend` leaves to the workers holding rows: once they gave them back, a cancelled send's
 * pending rows no worker holds are skipped. Answers whether the send is cancelled.
 */
export async function skipCancelled(deps: { db: SqlQueryable; now: () => Date }, sendId: number): Promise<boolean> {
  const { rows } = await deps.db.query<{ status: string }>("SELECT status FROM newsletter_sends WHERE id = $1", [sendId]);
  if (rows[0]?.status !== "cancelled") return false;
  await deps.db.query(
    `UPDATE newsletter_recipients SET status = 'skipped', last_error = 'Cancelled by the owner'
      WHERE send_id = $1 AND status = 'pending' AND (lease_until IS NULL OR lease_until <= $2 OR last_error IS NOT NULL)`,
    [sendId, deps.now()],
  );
  return true;
}

/**
 * Sends a worker could take up now: not finished, with a pending row that no live lease holds — a
 * send that never started, one whose worker died (its leases ran out), one with a retry due — or
 * with no pending row left but not marked finished (its worker died after the last row).
 * The watchdog's question, asked on a timer.
 */
export async function dueSends(deps: { db: SqlQueryable; now: () => Date }): Promise<number[]> {
  const { rows } = await deps.db.query<{ id: number }>(
    `SELECT s.id FROM newsletter_sends s
      WHERE s.status IN ('queued', 'sending')
        AND (s.paused_until IS NULL OR s.paused_until <= $1)
        AND (EXISTS (SELECT 1 FROM newsletter_recipients r
                      WHERE r.send_id = s.id AND r.status = 'pending' AND (r.lease_until IS NULL OR r.lease_until <= $1))
             OR NOT EXISTS (SELECT 1 FROM newsletter_recipients r WHERE r.send_id = s.id AND r.status = 'pending'))
      ORDER BY s.id`,
    [deps.now()],
  );
  return rows.map((row) => row.id);
}
