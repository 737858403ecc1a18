import { isRowId } from "../db/row-id.ts";
import { sendFigures, sendFiguresColumns, sendFiguresSql, type SendFigureRow } from "../email-events/send-health.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { placeholderAddressMessage, usesPlaceholderAddress } from "../mail/postal-address.ts";
import { audienceCondition } from "../segments/segment-sql.ts";
import { resolveAudience } from "../segments/segments.service.ts";
import { noRecipientsMessage, publishedPost, type NewsletterDeps } from "./newsletter-post-email.ts";
import { requestPrepareBudgetMs } from "./newsletter-prepare.ts";
import { startIfLive } from "./newsletter-start.ts";
import type { FailedRecipient, NewsletterSend } from "./newsletter.schema.ts";

export type { NewsletterSend } from "./newsletter.schema.ts";
export { noRecipientsMessage, publishedPost, renderPostNewsletter, type NewsletterDeps } from "./newsletter-post-email.ts";

/** What a send now to a segment nobody is in refuses (the post is not used up). */
export const nobodyInSegmentMessage = "Nobody in this segment is an active subscriber on every-post emails: there is nobody to send to.";

/** What "Send at" refuses: a time that has passed (the send would start at once, unasked). */
export const sendAtPassedMessage = "Send at must be a time ahead: to send now, leave it empty.";

/**
 * Sends a published post to the list, once its public page is live (every send waits for the
 * site: nobody gets a link to a page it does not serve yet). Now (`sendAt` absent): the page is
 * checked at once and, when it answers 200, the send starts here — the email rendered, and the
 * recipients fixed in batches (startIfLive) for up to `requestPrepareBudgetMs`: a small list is
 * `queued` in the answer, a large one `preparing`, which the timers go on with (decision 0064) —
 * else it is `waiting` and the timers start it once the page is live. Later (`sendAt`): it is `scheduled` and starts at that time (once the page is live), with
 * whoever is active then. A post is sent once: 409 when it has a send already (cancelled
 * included); 400 for a draft, a time that has passed, or, sending now, nobody subscribed (the post
 * is not used up). Workers do the sending (runSendWorker).
 */
export async function startSend(
  deps: NewsletterDeps,
  postId: number,
  options: { sendAt?: Date | undefined; segment?: string | number | undefined; prepare?: { budgetMs?: number; batchSize?: number } } = {},
): Promise<NewsletterSend> {
  if (deps.production && (await usesPlaceholderAddress(deps))) throw new ValidationError(placeholderAddressMessage);
  await publishedPost(deps, postId);
  const now = deps.now();
  const { sendAt } = options;
  if (sendAt && sendAt <= now) throw new ValidationError(sendAtPassedMessage);
  // A saved segment is kept as its expression now: editing it later does not change this send.
  const segment = await resolveAudience(deps.db, options.segment);
  if (!sendAt) {
    const params: unknown[] = [];
    const audience = await audienceCondition(deps.db, segment, params, { strict: true });
    const { rows } = await deps.db.query<{ active: boolean }>(`SELECT EXISTS (SELECT 1 FROM subscribers s WHERE ${audience}) AS active`, params);
    if (!rows[0]?.active) throw new ValidationError(segment === null ? noRecipientsMessage : nobodyInSegmentMessage);
  }
  const sendId = await deps.db.transaction(async (tx) => {
    // The post's row lock makes two starts for the same post take turns: the second sees the first.
    const { rows: posts } = await tx.query<{ published: boolean }>("SELECT published FROM posts WHERE id = $1 FOR UPDATE", [postId]);
    if (!posts[0]) throw new NotFoundError("Post not found");
    if (!posts[0].published) throw new ValidationError("Only a published post can be sent as the newsletter");
    const { rows: earlier } = await tx.query("SELECT id FROM newsletter_sends WHERE post_id = $1 LIMIT 1", [postId]);
    if (earlier.length > 0) throw new ConflictError("This post was already sent as the newsletter");
    // The email is rendered when the send starts (the post as it is then); until then it is empty.
    const { rows } = await tx.query<{ id: number }>(
      "INSERT INTO newsletter_sends (post_id, status, subject, html, text, created_at, send_at, segment) VALUES ($1, $2, '', '', '', $3, $4, $5) RETURNING id",
      [postId, sendAt ? "scheduled" : "waiting", now, sendAt ?? null, segment],
    );
    return (rows[0] as { id: number }).id;
  });
  if (!sendAt) {
    // The send exists: a failure to start it now is the timers' to retry, not the owner's to see.
    const until = new Date(deps.now().getTime() + (options.prepare?.budgetMs ?? requestPrepareBudgetMs));
    await startIfLive(deps, sendId, { until, batchSize: options.prepare?.batchSize }).catch((error: unknown) => {
      console.warn(`[newsletter] send ${String(sendId)} could not start now; the timers try again:`, error);
    });
  }
  return sendStatus(deps, sendId);
}

interface SendRow extends SendFigureRow {
  id: number;
  post_id: number;
  status: NewsletterSend["status"];
  total: number;
  prepared: number;
  sent: number;
  failed: number;
  skipped: number;
  pending: number;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  paused_reason: string | null;
  paused_until: Date | string | null;
  send_at: Date | string | null;
  status_reason: string | null;
  segment: string | null;
}

const isoOrNull = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

// The counts are the send's counters (migration 0037), moved in the same statement as the rows they
// count, so they always add up to the total: a read of one row, whatever the size of the send
// (docs/decisions/0066-send-counters.md). While the send is preparing, no total is answered (it is
// not fixed yet): 0, with `prepared` so far.
const sendsWithCounts = (where: string) =>
  `SELECT s.id, s.post_id, s.status, s.created_at, s.started_at, s.finished_at, s.paused_reason, s.paused_until, s.send_at, s.status_reason, s.segment,
          CASE WHEN s.status = 'preparing' THEN 0 ELSE s.count_pending + s.count_sent + s.count_failed + s.count_skipped END AS total,
          CASE WHEN s.status = 'preparing' THEN s.prepared ELSE s.count_pending + s.count_sent + s.count_failed + s.count_skipped END AS prepared,
          s.count_sent AS sent, s.count_failed AS failed, s.count_skipped AS skipped,
          CASE WHEN s.status = 'preparing' THEN 0 ELSE s.count_pending END AS pending,
          ${sendFiguresColumns}
     FROM newsletter_sends s
     ${sendFiguresSql}
    WHERE ${where}
    GROUP BY s.id
    ORDER BY s.created_at DESC, s.id DESC`;

/** A send's counts: sent + failed + skipped + pending = total. 404 for an unknown id. */
export async function sendStatus(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<NewsletterSend> {
  if (!isRowId(sendId)) throw new NotFoundError("Send not found");
  const { rows } = await deps.db.query<SendRow>(sendsWithCounts("s.id = $1"), [sendId]);
  const row = rows[0];
  if (!row) throw new NotFoundError("Send not found");
  return toSend(row);
}

/** Every send newest first, or one post's (its send history) with `postId`. */
export async function listSends(deps: Pick<NewsletterDeps, "db">, filter: { postId?: number | undefined } = {}): Promise<NewsletterSend[]> {
  const { rows } =
    filter.postId === undefined
      ? await deps.db.query<SendRow>(sendsWithCounts("true"))
      : await deps.db.query<SendRow>(sendsWithCounts("s.post_id = $1"), [filter.postId]);
  return rows.map(toSend);
}

/** The recipients of a send the SMTP server refused, with its reply (an erased subscriber is not listed). */
export async function failedRecipients(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<FailedRecipient[]> {
  await sendStatus(deps, sendId);
  const { rows } = await deps.db.query<FailedRecipient>(
    `SELECT s.email, r.last_error AS error, r.attempts
       FROM newsletter_recipients r JOIN subscribers s ON s.id = r.subscriber_id
      WHERE r.send_id = $1 AND r.status = 'failed'
      ORDER BY r.id`,
    [sendId],
  );
  return rows;
}

/**
 * "Retry failed": the failed rows go back to pending (attempts from zero) and the send to sending;
 * nothing else is touched, so only those recipients get the email. Workers do the sending.
 */
export async function retryFailed(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<NewsletterSend> {
  const send = await sendStatus(deps, sendId);
  if (send.status === "cancelled") throw new ConflictError("This send was cancelled");
  await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE newsletter_recipients SET status = 'pending', attempts = 0, lease_until = NULL
        WHERE send_id = $1 AND status = 'failed' AND subscriber_id IS NOT NULL RETURNING 1`,
      [sendId],
    );
    // A paused send stays paused: the rows wait for the owner's Resume with the rest.
    if (rows.length > 0)
      await tx.query("UPDATE newsletter_sends SET status = 'sending', finished_at = NULL WHERE id = $1 AND status <> 'paused'", [sendId]);
    // The owner asked for a try now: a pause's wait ends (the send pauses again if the provider is still down).
    await tx.query("UPDATE newsletter_sends SET paused_until = NULL WHERE id = $1 AND paused_until IS NOT NULL", [sendId]);
  });
  return sendStatus(deps, sendId);
}

function toSend(row: SendRow): NewsletterSend {
  return {
    id: row.id,
    postId: row.post_id,
    status: row.status,
    total: row.total,
    prepared: row.prepared,
    sent: row.sent,
    failed: row.failed,
    skipped: row.skipped,
    pending: row.pending,
    createdAt: new Date(row.created_at).toISOString(),
    sendAt: isoOrNull(row.send_at),
    statusReason: row.status_reason,
    segment: row.segment,
    startedAt: isoOrNull(row.started_at),
    finishedAt: isoOrNull(row.finished_at),
    pausedReason: row.paused_reason,
    pausedUntil: isoOrNull(row.paused_until),
    ...sendFigures(row),
  };
}

/**
 * The owner read why a send paused itself and goes on: it is `sending` again (or `queued`, if it
 * never started), its pending rows are claimed as before — each sent once — and it does not pause
 * itself again (the owner chose to go on with these figures). 409 unless it is paused.
 */
export async function resumePausedSend(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<NewsletterSend> {
  await sendStatus(deps, sendId);
  const { rows } = await deps.db.query(
    `UPDATE newsletter_sends
        SET status = CASE WHEN started_at IS NULL THEN 'queued' ELSE 'sending' END,
            paused_reason = NULL, paused_until = NULL, pauses = 0, auto_pause_off = true
      WHERE id = $1 AND status = 'paused' RETURNING id`,
    [sendId],
  );
  if (rows.length === 0) throw new ConflictError("Only a paused send can be resumed");
  return sendStatus(deps, sendId);
}

/** Statuses a send is finished in: nothing more goes out, and cancel has nothing to stop. */
const finishedStatuses = ["sent", "failed", "cancelled"];

/**
 * Stops a send for good, from whatever state it is still going out in (queued, sending, paused — and
 * any later one that is not finished): its pending recipients are skipped and get nothing; rows in
 * flight at that moment finish. 409 for a finished send.
 */
export async function cancelSend(deps: Pick<NewsletterDeps, "db" | "now">, sendId: number): Promise<NewsletterSend> {
  await sendStatus(deps, sendId);
  await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE newsletter_sends SET status = 'cancelled', finished_at = $2, paused_until = NULL
        WHERE id = $1 AND status <> ALL($3::text[]) RETURNING id`,
      [sendId, deps.now(), finishedStatuses],
    );
    if (rows.length === 0) throw new ConflictError("This send has finished already");
    // Rows a worker holds right now are left to it: it reads the send before each hand-over, so
    // only those already handed to SMTP go out, and it skips the rest once it gave them back
    // (`skipCancelled`, decision 0058). The others, those waiting for a retry (a reply kept)
    // included, are skipped now — but not a row a worker's statement holds at this moment: that
    // statement settles it, then moves the send's counters, whose row this transaction holds
    // (migration 0037); waiting for it would be a deadlock. A row it gives back or leaves for a
    // retry is the worker's `skipCancelled` to skip once its run stops.
    await tx.query(
      `UPDATE newsletter_recipients SET status = 'skipped', last_error = 'Cancelled by the owner'
        WHERE id IN (SELECT id FROM newsletter_recipients
                      WHERE send_id = $1 AND status = 'pending' AND (lease_until IS NULL OR lease_until <= $2 OR last_error IS NOT NULL)
                        FOR UPDATE SKIP LOCKED)`,
      [sendId, deps.now()],
    );
  });
  return sendStatus(deps, sendId);
}
