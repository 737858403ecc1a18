import type { SqlQueryable } from "./db/sql-executor.ts";
import { clientKey } from "./client-key.ts";
import { RateLimitedError } from "./errors.ts";

export interface RateLimit {
  /** Which call is limited, e.g. `newsletter`. */
  bucket: string;
  /** Most hits allowed per client within the window. */
  max: number;
  windowMs: number;
}

/** How many windows that no longer count one take deletes, at most (for all clients of its bucket). */
const pruneBatch = 100;

/**
 * Counts one hit for the client at `clientAddress` and throws 429 with the wait when the client is
 * over the limit. Stored in the database because function instances share no memory. The client
 * is keyed by `clientKey` (an IPv6 address by its /64). `env.RATE_LIMIT_MULTIPLIER` raises every
 * limit (for load tests from one address).
 *
 * A sliding window from two fixed windows: the hits of the current window plus the previous
 * window's, weighted by how much of it still lies inside the last `windowMs`. One counter row per
 * client and window, so a check costs the same after ten hits or ten thousand; only allowed hits
 * count, so a refused client is not kept out longer for trying.
 *
 * The hit is taken by one upsert whose condition reads the current window's count from the row
 * it locks, so concurrent takes queue on that row and exactly `max` pass (a read of the count in
 * the statement's snapshot let a burst through: 13 of 40 on PostgreSQL, 31 through Neon's HTTP
 * driver). The previous window's count is read from the snapshot: nothing adds to it any more.
 * A hit that starts a counter (a client's first in a window) then deletes a bounded batch of
 * windows older than the previous one, whoever's: the table stays bounded, and the other hits pay
 * nothing for it (the delete in the same statement cost 1.3 of its 3.9 ms on the embedded
 * database, measured 2026-11-24, on every signup).
 */
export async function takeRateLimit(
  deps: { db: SqlQueryable; now: () => Date; env?: { RATE_LIMIT_MULTIPLIER?: number | undefined } },
  limit: RateLimit,
  clientAddress: string,
): Promise<void> {
  const max = limit.max * (deps.env?.RATE_LIMIT_MULTIPLIER ?? 1);
  const client = clientKey(clientAddress);
  const now = deps.now().getTime();
  const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
  const previousStart = windowStart - limit.windowMs;
  const previousWeight = 1 - (now - windowStart) / limit.windowMs;
  const { rows } = await deps.db.query<{ hits: number }>(
    `WITH previous AS (
       SELECT coalesce(sum(hits), 0)::float8 * $5::float8 AS weighted
         FROM rate_limit_counters WHERE bucket = $1 AND client_key = $2 AND window_start = $4
     )
     INSERT INTO rate_limit_counters AS counter (bucket, client_key, window_start, hits)
     SELECT $1, $2, $3, 1 FROM previous WHERE weighted < $6
     ON CONFLICT (bucket, client_key, window_start) DO UPDATE SET hits = counter.hits + 1
       WHERE (SELECT weighted FROM previous) + counter.hits < $6
     RETURNING hits`,
    [limit.bucket, client, new Date(windowStart), new Date(previousStart), previousWeight, max],
  );
  if (rows[0]?.hits === 1) {
    await deps.db.query(
      `DELETE FROM rate_limit_counters WHERE ctid IN (
         SELECT ctid FROM rate_limit_counters WHERE bucket = $1 AND window_start < $2
          LIMIT ${String(pruneBatch)} FOR UPDATE SKIP LOCKED)`,
      [limit.bucket, new Date(previousStart)],
    );
  }
  if (rows.length > 0) return;
  // Refused (rare): read both counts as they are now, to say how long to wait.
  const counts = await deps.db.query<{ previous: number; current: number }>(
    `SELECT coalesce(sum(hits) FILTER (WHERE window_start = $4), 0)::int AS previous,
            coalesce(sum(hits) FILTER (WHERE window_start = $3), 0)::int AS current
       FROM rate_limit_counters WHERE bucket = $1 AND client_key = $2 AND window_start >= $4`,
    [limit.bucket, client, new Date(windowStart), new Date(previousStart)],
  );
  const row = counts.rows[0] ?? { previous: 0, current: max };
  throw new RateLimitedError("Too many requests. Please try again later.", retryAfterSeconds(row, max, limit.windowMs, now - windowStart));
}

/** Seconds until the weighted count falls below `max`, the hits staying as they are. */
export function retryAfterSeconds(counts: { previous: number; current: number }, max: number, windowMs: number, elapsedMs: number): number {
  const { previous, current } = counts;
  let waitMs: number;
  if (current < max && previous > 0) {
    // Within this window, once enough of the previous one has slid out.
    waitMs = windowMs * (1 - (max - current) / previous) - elapsedMs;
  } else {
    // In the next window, once enough of this one has slid out.
    waitMs = windowMs - elapsedMs + windowMs * (1 - max / current);
  }
  return Math.max(1, Math.ceil(waitMs / 1000));
}
