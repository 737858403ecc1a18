import type { SqlQueryable } from "../db/sql-executor.ts";
import { pauseDelayMs } from "../mail/delivery-failure.ts";

/** A recipient row handed to a worker, with the subscriber as they are now (checked again at claim). */
export interface ClaimedRecipient {
  /** The row's id (stays valid when an erase clears `subscriberId`). */
  id: number;
  subscriberId: number | null;
  /** Null when the subscriber was erased since the start. */
  email: string | null;
  /** The subscriber's status now: only "active" gets the email. */
  subscriberStatus: string | null;
  /** How the subscriber joined (`subscribers.source`): the footer's reason says so. */
  source: string | null;
  /** How many times the row was handed over, this time included. */
  attempts: number;
  /** The lease this claim set: the row is the caller's until then (or until `renewLease` extends it). */
  leaseUntil: Date;
}

interface ClaimRow {
  id: number | string;
  subscriber_id: number | null;
  email: string | null;
  subscriber_status: string | null;
  source: string | null;
  attempts: number;
}

/**
 * Hands up to `size` pending rows of a send to the caller for `leaseMs`: rows another worker is
 * claiming right now are passed over (FOR UPDATE SKIP LOCKED), rows under a live lease are left
 * alone, and rows whose lease ran out (their worker crashed or stalled) are claimable again.
 * Time is the caller's clock (`now`), so tests can move it.
 */
export async function claimBatch(
  deps: { db: SqlQueryable; now: () => Date },
  sendId: number,
  size: number,
  leaseMs: number,
): Promise<ClaimedRecipient[]> {
  const now = deps.now();
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const { rows } = await deps.db.query<ClaimRow>(
    `WITH picked AS (
       SELECT r.id, s.email, s.status AS subscriber_status, s.source
         FROM newsletter_recipients r LEFT JOIN subscribers s ON s.id = r.subscriber_id
        WHERE r.send_id = $1 AND r.status = 'pending' AND (r.lease_until IS NULL OR r.lease_until <= $2)
          -- A send paused by its figures or cancelled hands out nothing more (in-flight rows finish).
          AND EXISTS (SELECT 1 FROM newsletter_sends ns WHERE ns.id = $1 AND ns.status IN ('queued', 'sending'))
        ORDER BY r.id
        LIMIT $3
        FOR UPDATE OF r SKIP LOCKED
     )
     UPDATE newsletter_recipients r SET lease_until = $4, attempts = r.attempts + 1
       FROM picked WHERE r.id = picked.id
     RETURNING r.id, r.subscriber_id, picked.email, picked.subscriber_status, picked.source, r.attempts`,
    [sendId, now, size, leaseUntil],
  );
  if (rows.length > 0) {
    await deps.db.query("UPDATE newsletter_sends SET status = 'sending', started_at = $2 WHERE id = $1 AND status = 'queued'", [sendId, now]);
  }
  return rows
    .map((row) => ({
      id: Number(row.id),
      subscriberId: row.subscriber_id,
      email: row.email,
      subscriberStatus: row.subscriber_status,
      source: row.source,
      attempts: row.attempts,
      leaseUntil,
    }))
    .sort((a, b) => a.id - b.id);
}

/**
 * Extends the lease of rows a worker still holds: pending, and leased until exactly `heldUntil` (the
 * lease this worker set). A row another worker took over after the lease ran out, one settled, or
 * one given a retry time keeps what it has. Returns how many rows were extended.
 */
export async function renewLease(db: SqlQueryable, recipientIds: number[], heldUntil: Date, leaseUntil: Date): Promise<number> {
  if (recipientIds.length === 0) return 0;
  const { rows } = await db.query<{ id: number }>(
    `UPDATE newsletter_recipients SET lease_until = $3
      WHERE id = ANY($1::bigint[]) AND status = 'pending' AND lease_until = $2
      RETURNING id`,
    [recipientIds, heldUntil, leaseUntil],
  );
  return rows.length;
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
  if (accepted.length === 0) return;
  await deps.db.query(
    `WITH done AS (
       UPDATE newsletter_recipients r
          SET status = 'sent', sent_at = $1, message_id = m.message_id, lease_until = NULL, last_error = NULL
         FROM unnest($2::bigint[], $3::text[]) AS m (id, message_id)
        WHERE r.id = m.id AND r.status = 'pending'
       RETURNING r.subscriber_id, r.message_id
     )
     INSERT INTO subscriber_emails (subscriber_id, kind, subject, message_id, sent_at)
     SELECT subscriber_id, 'newsletter', $4, message_id, $1 FROM done WHERE subscriber_id IS NOT NULL`,
    [deps.now(), accepted.map((row) => row.id), accepted.map((row) => row.messageId), subject],
  );
}

/**
 * Group commit for `markSent`: each caller waits until its row is marked, and the rows accepted
 * while one statement runs are marked together by the next. A worker with N messages in flight
 * then writes about one statement per N messages, and no more than N accepted messages are ever
 * unmarked — the most a crash can duplicate.
 */
export function sentMarker(deps: { db: SqlQueryable; now: () => Date }, subject: string): (row: { id: number; messageId: string }) => Promise<void> {
  let waiting: { row: { id: number; messageId: string }; done: () => void; fail: (error: unknown) => void }[] = [];
  let flushing = false;
  const flush = async () => {
    flushing = true;
    while (waiting.length > 0) {
      const group = waiting;
      waiting = [];
      try {
        await markSent(
          deps,
          group.map((entry) => entry.row),
          subject,
        );
        for (const entry of group) entry.done();
      } catch (error) {
        for (const entry of group) entry.fail(error);
      }
    }
    flushing = false;
  };
  return (row) =>
    new Promise<void>((done, fail) => {
      waiting.push({ row, done, fail });
      if (!flushing) void flush();
    });
}

/** Someone who unsubscribed or was erased since the start: nothing is sent, and they count as skipped. */
export async function markSkipped(db: SqlQueryable, recipientIds: number[]): Promise<void> {
  if (recipientIds.length === 0) return;
  await db.query("UPDATE newsletter_recipients SET status = 'skipped', lease_until = NULL WHERE id = ANY($1::bigint[]) AND status = 'pending'", [
    recipientIds,
  ]);
}

/** A permanent failure (a 5xx reply): never retried by the worker, with the server's reply kept. */
export async function markFailed(db: SqlQueryable, recipientId: number, reason: string): Promise<void> {
  await db.query("UPDATE newsletter_recipients SET status = 'failed', lease_until = NULL, last_error = $2 WHERE id = $1 AND status = 'pending'", [
    recipientId,
    reason,
  ]);
}

/** A transient failure: the row stays pending, leased until `retryAt`, when any worker may try again. */
export async function markRetry(db: SqlQueryable, recipientId: number, reason: string, retryAt: Date): Promise<void> {
  await db.query("UPDATE newsletter_recipients SET lease_until = $2, last_error = $3 WHERE id = $1 AND status = 'pending'", [
    recipientId,
    retryAt,
    reason,
  ]);
}

/**
 * Ends a send whose rows are all settled (none pending): status "sent", with the time. Returns
 * whether the send is finished (now or before).
 */
export async function finishIfSettled(deps: { db: SqlQueryable; now: () => Date }, sendId: number): Promise<boolean> {
  const { rows } = await deps.db.query<{ pending: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM newsletter_recipients WHERE send_id = $1 AND status = 'pending') AS pending",
    [sendId],
  );
  if (rows[0]?.pending) return false;
  await deps.db.query("UPDATE newsletter_sends SET status = 'sent', finished_at = $2 WHERE id = $1 AND status IN ('queued', 'sending')", [
    sendId,
    deps.now(),
  ]);
  return true;
}

/**
 * Rows a provider failure interrupted go back as they were before their claim: pending, free to
 * claim, the hand-over not counted (the provider's outage must not use up a recipient's 5 tries),
 * and a failure the pause found to be the provider's (a run of identical refusals) undone.
 */
export async function giveBack(db: SqlQueryable, recipientIds: number[]): Promise<void> {
  if (recipientIds.length === 0) return;
  await db.query(
    `UPDATE newsletter_recipients SET status = 'pending', lease_until = NULL, last_error = NULL, attempts = GREATEST(attempts - 1, 0)
      WHERE id = ANY($1::bigint[]) AND status IN ('pending', 'failed')`,
    [recipientIds],
  );
}

/**
 * Pauses a send after a failure of the whole provider: no worker takes it up before
 * `paused_until` (1, 2, 4… 30 minutes, doubling with each pause in a row), and `paused_reason` is
 * what the dashboard shows. Several messages failing at once pause it once: a pause still running
 * is kept.
 */
export async function pauseSend(deps: { db: SqlQueryable; now: () => Date }, sendId: number, reason: string): Promise<void> {
  const now = deps.now();
  const { rows } = await deps.db.query<{ pauses: number }>("SELECT pauses FROM newsletter_sends WHERE id = $1", [sendId]);
  const until = new Date(now.getTime() + pauseDelayMs(rows[0]?.pauses ?? 0));
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
