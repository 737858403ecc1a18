import type { SqlExecutor } from "../db/sql-executor.ts";
import { audienceCondition } from "../segments/segment-sql.ts";
import type { Clock } from "../shared/clock.ts";

/**
 * How many recipients one batch fixes: at 1,000,000 subscribers a batch of 20,000 is a short
 * transaction on PostgreSQL (figures in docs/decisions/0064-send-prepares-in-batches.md), far
 * under the 15 s statement timeout, and the whole list is 50 of them.
 */
export const prepareBatchSize = 20_000;

/** How long the owner's "Send" may spend fixing recipients before it answers: a small list is queued at once, as before. */
export const requestPrepareBudgetMs = 2_000;

/** Why a send that was due ended without sending: nobody was subscribed then. */
export const nobodyWhenDueMessage = "Nobody was an active subscriber when this send was due to start, so nothing was sent.";

/** Where a send's preparing stands after a run: more batches to go, or what it became. */
export type PrepareOutcome = "preparing" | "queued" | "failed" | "stopped";

export interface PrepareOptions {
  /** Stop starting batches at this time (the batch in hand finishes). Absent: prepare to the end. */
  until?: Date | undefined;
  /** Recipients a batch fixes (tests make it small). */
  batchSize?: number | undefined;
}

type PrepareDeps = { db: SqlExecutor; now: Clock["now"] };

/**
 * One batch, in its own transaction: the send's row is locked (two runs take turns, and a cancel
 * waits for the batch in hand and then stops the next), the next `batchSize` subscribers by id
 * after the cursor, up to the highest id when the send started, who are active now are inserted,
 * and the cursor moves past them in the same transaction — a crash before the commit leaves
 * neither, after it both. The last batch fixes `total` and queues the send (or ends it: nobody).
 */
export async function prepareBatch(deps: PrepareDeps, sendId: number, batchSize = prepareBatchSize): Promise<PrepareOutcome> {
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ prepared_through: number; prepare_upto: number; prepared: number; segment: string | null }>(
      "SELECT prepared_through, prepare_upto, prepared, segment FROM newsletter_sends WHERE id = $1 AND status = 'preparing' FOR UPDATE",
      [sendId],
    );
    const send = rows[0];
    if (!send) return "stopped";
    const params: unknown[] = [sendId, send.prepared_through, send.prepare_upto, batchSize];
    // The audience rule the count shares (decision 0072); a topic or tag deleted since the send
    // was made matches nobody rather than stopping it.
    const audience = await audienceCondition(tx, send.segment, params, { strict: false });
    const { rows: fixed } = await tx.query<{ count: number; last: number | null }>(
      `WITH picked AS (
         SELECT s.id FROM subscribers s WHERE s.id > $2 AND s.id <= $3 AND ${audience} ORDER BY s.id LIMIT $4
       ), inserted AS (
         INSERT INTO newsletter_recipients (send_id, subscriber_id) SELECT $1, id FROM picked ORDER BY id RETURNING subscriber_id
       )
       SELECT count(*)::int AS count, max(subscriber_id) AS last FROM inserted`,
      params,
    );
    const count = fixed[0]?.count ?? 0;
    // A short batch read every id up to the bound: nothing is left after it.
    const through = count < batchSize ? send.prepare_upto : Number(fixed[0]?.last ?? send.prepare_upto);
    const prepared = send.prepared + count;
    if (through < send.prepare_upto) {
      await tx.query("UPDATE newsletter_sends SET prepared_through = $2, prepared = $3 WHERE id = $1", [sendId, through, prepared]);
      return "preparing";
    }
    if (prepared === 0) {
      await tx.query("UPDATE newsletter_sends SET status = 'failed', prepared_through = $2, finished_at = $3, status_reason = $4 WHERE id = $1", [
        sendId,
        through,
        deps.now(),
        nobodyWhenDueMessage,
      ]);
      return "failed";
    }
    await tx.query("UPDATE newsletter_sends SET status = 'queued', prepared_through = $2, prepared = $3, total = $3 WHERE id = $1", [
      sendId,
      through,
      prepared,
    ]);
    return "queued";
  });
}

/** Fixes a send's recipients batch after batch until none is left, it is cancelled, or `until` has passed. */
export async function prepareSend(deps: PrepareDeps, sendId: number, options: PrepareOptions = {}): Promise<PrepareOutcome> {
  for (;;) {
    const outcome = await prepareBatch(deps, sendId, options.batchSize);
    if (outcome !== "preparing") return outcome;
    if (options.until && deps.now() >= options.until) return outcome;
  }
}

/** The sends still preparing, oldest first. */
export async function preparingSends(deps: Pick<PrepareDeps, "db">): Promise<number[]> {
  const { rows } = await deps.db.query<{ id: number }>("SELECT id FROM newsletter_sends WHERE status = 'preparing' ORDER BY id");
  return rows.map((row) => row.id);
}

/**
 * The timers' step for sends still preparing (a request that ran out of its budget, a crash, a
 * run that ran out of time): each goes on from its cursor until `until`. One failing does not hold
 * up the others; the next run tries it again from the cursor.
 */
export async function prepareDueSends(deps: PrepareDeps, options: PrepareOptions = {}): Promise<Map<number, PrepareOutcome>> {
  const outcomes = new Map<number, PrepareOutcome>();
  for (const id of await preparingSends(deps)) {
    if (options.until && deps.now() >= options.until) break;
    try {
      outcomes.set(id, await prepareSend(deps, id, options));
    } catch (error) {
      console.warn(`[newsletter] send ${String(id)} could not fix its next recipients; the next run goes on from there:`, error);
    }
  }
  return outcomes;
}
