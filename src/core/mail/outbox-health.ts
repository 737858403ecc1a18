import type { SqlQueryable } from "../db/sql-executor.ts";
import type { Clock } from "../shared/clock.ts";
import { outboxPause } from "./outbox.ts";
import type { OutboxHealth } from "./outbox.schema.ts";

interface HealthRow {
  id: number | string;
  kind: OutboxHealth["messages"][number]["kind"];
  to_address: string;
  status: "pending" | "failed";
  attempts: number;
  last_error: string | null;
  created_at: Date | string;
}

/** How many messages the dashboard lists: enough to see what is wrong, never the whole table. */
const listed = 50;

/** What the owner sees of transactional mail: the pause, the counts, and the pending and failed messages. */
export async function outboxHealth(deps: { db: SqlQueryable }): Promise<OutboxHealth> {
  const [pause, counts, messages] = await Promise.all([
    outboxPause(deps.db),
    deps.db.query<{ pending: number; failed: number }>(
      `SELECT (count(*) FILTER (WHERE status = 'pending'))::int AS pending, (count(*) FILTER (WHERE status = 'failed'))::int AS failed
         FROM outbox WHERE status IN ('pending', 'failed')`,
    ),
    deps.db.query<HealthRow>(
      `SELECT id, kind, to_address, status, attempts, last_error, created_at FROM outbox
        WHERE status IN ('pending', 'failed') ORDER BY id DESC LIMIT $1`,
      [listed],
    ),
  ]);
  return {
    paused: pause && { reason: pause.reason, until: pause.until.toISOString(), since: pause.since.toISOString() },
    pending: counts.rows[0]?.pending ?? 0,
    failed: counts.rows[0]?.failed ?? 0,
    messages: messages.rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      to: row.to_address,
      status: row.status,
      attempts: row.attempts,
      lastError: row.last_error,
      createdAt: new Date(row.created_at).toISOString(),
    })),
  };
}

/**
 * The owner's "Retry": every failed message goes back to pending with its hand-overs from zero, and a
 * pause's wait ends now — the next run tries them at once (it pauses again if the provider is still down).
 */
export async function retryOutbox(deps: { db: SqlQueryable; now: Clock["now"] }): Promise<OutboxHealth> {
  await deps.db.query("UPDATE outbox SET status = 'pending', attempts = 0, lease_until = NULL WHERE status = 'failed'");
  await deps.db.query("UPDATE outbox_pause SET paused_until = $1 WHERE paused_until > $1", [deps.now()]);
  return outboxHealth(deps);
}
