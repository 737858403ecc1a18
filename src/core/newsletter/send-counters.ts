import type { SqlQueryable } from "../db/sql-executor.ts";

/**
 * Sets every send's counters (migration 0037) to a recount of its rows and events. The triggers
 * keep them as rows change; a restore writes the sends' archived counters and then their rows, which
 * the triggers count again (and rows it leaves out were counted in the archive), so it recounts once
 * at its end, in its transaction.
 */
export async function recountSendCounters(db: SqlQueryable): Promise<void> {
  await db.query(
    `UPDATE newsletter_sends s
        SET count_pending = coalesce(r.pending, 0), count_sent = coalesce(r.sent, 0),
            count_failed = coalesce(r.failed, 0), count_skipped = coalesce(r.skipped, 0),
            count_bounced = coalesce(e.bounced, 0), count_bounced_after = coalesce(e.bounced_after, 0),
            count_soft_bounced = coalesce(e.soft_bounced, 0), count_complained = coalesce(e.complained, 0)
       FROM newsletter_sends s2
       LEFT JOIN (SELECT send_id,
                         (count(*) FILTER (WHERE status = 'pending'))::int AS pending,
                         (count(*) FILTER (WHERE status = 'sent'))::int AS sent,
                         (count(*) FILTER (WHERE status = 'failed'))::int AS failed,
                         (count(*) FILTER (WHERE status = 'skipped'))::int AS skipped
                    FROM newsletter_recipients GROUP BY send_id) r ON r.send_id = s2.id
       LEFT JOIN (SELECT send_id,
                         (count(DISTINCT coalesce(message_ref, event_id)) FILTER (WHERE type = 'hard_bounce'))::int AS bounced,
                         (count(DISTINCT coalesce(message_ref, event_id)) FILTER (WHERE type = 'hard_bounce' AND provider <> 'smtp'))::int AS bounced_after,
                         (count(DISTINCT coalesce(message_ref, event_id)) FILTER (WHERE type = 'soft_bounce'))::int AS soft_bounced,
                         (count(DISTINCT coalesce(message_ref, event_id)) FILTER (WHERE type = 'complaint'))::int AS complained
                    FROM email_events WHERE send_id IS NOT NULL GROUP BY send_id) e ON e.send_id = s2.id
      WHERE s.id = s2.id`,
  );
}
