import type { SqlQueryable } from "../db/sql-executor.ts";
import { countSubscribers } from "../subscribers/subscriber-list.ts";
import { settingDefinitions } from "../settings/settings.schema.ts";
import type { ListHealth } from "./email-events.schema.ts";

/**
 * A send's figures from what came back (docs/decisions/0030-bounces-and-complaints.md): hard and
 * soft bounces and complaints are the send's events (email_events.send_id), each message counted
 * once; delivered is sent less the messages a provider bounced for good afterwards; unsubscribed is
 * the recipients who left after this send and before any later one reached them.
 *
 * The event figures are the send's counters, kept as events arrive (migration 0037,
 * docs/decisions/0066-send-counters.md). Unsubscribed starts from who unsubscribed since the send
 * started (a recipient sent before they left was sent after the start): one index probe each, not a
 * read of every recipient row of the send. The LIMIT keeps it a probe: joined directly, PostgreSQL
 * guessed every row of the send and read them all (247 ms at 934,000; decision 0070). The upper
 * bound 'infinity' changes no answer but the planner's guess: a third of the unsubscribes for an
 * open range, 0.5 % for a closed one, which keeps the query's cost under PostgreSQL's JIT threshold
 * (compiling it took 118 ms of a 123 ms query).
 */
export const sendFiguresSql = `
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS unsubscribed
      FROM subscribers us
      JOIN LATERAL (SELECT r.subscriber_id, r.sent_at FROM newsletter_recipients r
                     WHERE r.send_id = s.id AND r.subscriber_id = us.id AND r.status = 'sent' LIMIT 1) ur ON true
     WHERE s.started_at IS NOT NULL AND us.status = 'unsubscribed' AND us.unsubscribed_at BETWEEN s.started_at AND 'infinity'
       AND us.unsubscribed_at >= ur.sent_at
       AND NOT EXISTS (SELECT 1 FROM newsletter_recipients later
                        WHERE later.subscriber_id = ur.subscriber_id AND later.status = 'sent'
                          AND later.sent_at > ur.sent_at AND later.sent_at <= us.unsubscribed_at)
  ) un ON true`;

/** The columns `sendFiguresSql` and the send's counters give, aggregated so a query grouped by the send may select them. */
export const sendFiguresColumns = `max(s.count_bounced) AS bounced, max(s.count_bounced_after) AS bounced_after,
          max(s.count_soft_bounced) AS soft_bounced, max(s.count_complained) AS complained, max(un.unsubscribed) AS unsubscribed`;

export interface SendFigureRow {
  sent: number;
  failed: number;
  bounced: number | null;
  bounced_after: number | null;
  soft_bounced: number | null;
  complained: number | null;
  unsubscribed: number | null;
}

export interface SendFigures {
  delivered: number;
  bounced: number;
  softBounced: number;
  complained: number;
  unsubscribed: number;
  rates: { delivered: number; bounced: number; softBounced: number; complained: number; unsubscribed: number };
}

const rate = (count: number, of: number) => (of > 0 ? Math.round((count / of) * 1e6) / 1e6 : 0);

/** Counts and rates: bounces of the messages handed over (sent + refused), complaints and unsubscribes of those delivered. */
export function sendFigures(row: SendFigureRow): SendFigures {
  const handedOver = row.sent + row.failed;
  const bounced = row.bounced ?? 0;
  const delivered = Math.max(0, row.sent - (row.bounced_after ?? 0));
  const softBounced = row.soft_bounced ?? 0;
  const complained = row.complained ?? 0;
  const unsubscribed = row.unsubscribed ?? 0;
  return {
    delivered,
    bounced,
    softBounced,
    complained,
    unsubscribed,
    rates: {
      delivered: rate(delivered, handedOver),
      bounced: rate(bounced, handedOver),
      softBounced: rate(softBounced, row.sent),
      complained: rate(complained, delivered),
      unsubscribed: rate(unsubscribed, delivered),
    },
  };
}

/**
 * Fewest complaints (and hard bounces) that may stop a send, whatever the rate: below 5 events a
 * rate says little — one complaint in a send to 50 is 2 %, yet a list complaining at 0.3 % gives
 * that send 5 or more complaints with a chance under one in a million (Poisson, λ = 0.15), and a
 * send to 333 (λ = 1) one in 270. The record gives the figures.
 */
export const minEventsToPause = 5;

export interface PauseThresholds {
  /** Fractions: 0.003 is 0.3 %. */
  complaintRate: number;
  bounceRate: number;
}

const percentOf = (value: string | undefined, fallback: string) => {
  const number = Number(value?.trim() || fallback);
  return (Number.isFinite(number) && number > 0 ? number : Number(fallback)) / 100;
};

/** The owner's thresholds (Site Settings), or the defaults: 0.3 % complaints, 5 % hard bounces. */
export async function pauseThresholds(db: SqlQueryable): Promise<PauseThresholds> {
  const { rows } = await db.query<{ key: string; value: string }>(
    "SELECT key, value FROM site_settings WHERE key IN ('complaint_pause_percent', 'bounce_pause_percent')",
  );
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  return {
    complaintRate: percentOf(stored.get("complaint_pause_percent"), settingDefinitions.complaint_pause_percent.defaultValue),
    bounceRate: percentOf(stored.get("bounce_pause_percent"), settingDefinitions.bounce_pause_percent.defaultValue),
  };
}

const percent = (fraction: number) => `${String(Math.round(fraction * 1e4) / 100)} %`;

/** Why a send's figures should stop it, or undefined. */
export function pauseReason(figures: SendFigures, thresholds: PauseThresholds): string | undefined {
  if (figures.complained >= minEventsToPause && figures.rates.complained >= thresholds.complaintRate) {
    return `Paused by itself: ${String(figures.complained)} spam complaints, ${percent(figures.rates.complained)} of the messages delivered (the limit is ${percent(thresholds.complaintRate)}; Gmail and Yahoo block senders over 0.3 %). Check the list before you resume.`;
  }
  if (figures.bounced >= minEventsToPause && figures.rates.bounced >= thresholds.bounceRate) {
    return `Paused by itself: ${String(figures.bounced)} hard bounces, ${percent(figures.rates.bounced)} of the messages sent (the limit is ${percent(thresholds.bounceRate)}). The list may hold many dead addresses: check it before you resume.`;
  }
  return undefined;
}

/**
 * Pauses a send that is going out (queued or sending) when its figures pass the thresholds, unless
 * the owner resumed it past them already. Its pending rows stay pending; workers claim none while
 * it is paused (newsletter-queue.ts). Answers the reason when it paused the send now.
 */
export async function pauseIfOverThresholds(deps: { db: SqlQueryable }, sendId: number): Promise<string | undefined> {
  // The send's counters (migration 0037): one primary-key read, whatever the size of the send. A
  // send that no longer goes out is not read further: events keep coming for days after it ended.
  const { rows } = await deps.db.query<SendFigureRow & { status: string; auto_pause_off: boolean }>(
    `SELECT status, auto_pause_off, count_sent AS sent, count_failed AS failed, count_bounced AS bounced,
            count_bounced_after AS bounced_after, count_soft_bounced AS soft_bounced, count_complained AS complained,
            0 AS unsubscribed
       FROM newsletter_sends WHERE id = $1`,
    [sendId],
  );
  const row = rows[0];
  if (!row || row.auto_pause_off || (row.status !== "queued" && row.status !== "sending")) return undefined;
  const reason = pauseReason(sendFigures(row), await pauseThresholds(deps.db));
  if (!reason) return undefined;
  const { rows: paused } = await deps.db.query(
    `UPDATE newsletter_sends SET status = 'paused', paused_reason = $2, paused_until = NULL
      WHERE id = $1 AND status IN ('queued', 'sending') AND NOT auto_pause_off RETURNING id`,
    [sendId, reason],
  );
  return paused.length > 0 ? reason : undefined;
}

/** Gmail's and Yahoo's spam-complaint line for bulk senders (February 2024 sender rules). */
export const gmailComplaintLimit = 0.003;

const windowMs = 30 * 24 * 60 * 60 * 1000;

/**
 * The last 30 days: complaints of the messages delivered (newsletters and transactional alike, as
 * a mailbox provider counts them) and hard bounces of the messages handed over.
 */
export async function listHealth(deps: { db: SqlQueryable; now: () => Date }): Promise<ListHealth> {
  const since = new Date(deps.now().getTime() - windowMs);
  const { rows } = await deps.db.query<{
    sent: number;
    refused: number;
    complained: number;
    bounced: number;
    bounced_after: number;
  }>(
    // The messages sent: the minutes' tallies after the window's first minute (migration 0041), and
    // the rows of that minute inside the window, so the count is exact whatever the size of the list.
    `SELECT (SELECT coalesce(sum(sent), 0) FROM tallies.sent_minutes WHERE minute >= $2)::int
              + (SELECT count(*) FROM newsletter_recipients WHERE status = 'sent' AND sent_at >= $1 AND sent_at < $2)::int
              + (SELECT count(*) FROM outbox WHERE status = 'sent' AND sent_at >= $1 AND sent_at < $2)::int AS sent,
            (SELECT count(*) FROM email_events WHERE provider = 'smtp' AND type = 'hard_bounce' AND occurred_at >= $1)::int AS refused,
            (SELECT count(DISTINCT coalesce(message_ref, event_id)) FROM email_events WHERE type = 'complaint' AND occurred_at >= $1)::int AS complained,
            (SELECT count(DISTINCT coalesce(message_ref, event_id)) FROM email_events WHERE type = 'hard_bounce' AND occurred_at >= $1)::int AS bounced,
            (SELECT count(DISTINCT coalesce(message_ref, event_id)) FROM email_events
              WHERE type = 'hard_bounce' AND provider <> 'smtp' AND occurred_at >= $1)::int AS bounced_after`,
    [since, new Date(Math.floor(since.getTime() / 60_000) * 60_000 + 60_000)],
  );
  const row = rows[0] ?? { sent: 0, refused: 0, complained: 0, bounced: 0, bounced_after: 0 };
  // Who gets nothing: the subscribers' kept totals, not a count of the list.
  const totals = await countSubscribers(deps);
  const delivered = Math.max(0, row.sent - row.bounced_after);
  const thresholds = await pauseThresholds(deps.db);
  return {
    since: since.toISOString(),
    delivered,
    complained: row.complained,
    complaintRate: rate(row.complained, delivered),
    complaintLimit: gmailComplaintLimit,
    bounced: row.bounced,
    bounceRate: rate(row.bounced, row.sent + row.refused),
    pauseAt: thresholds,
    suppressed: { bounced: totals.bounced, complained: totals.complained },
  };
}
