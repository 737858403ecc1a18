import type { ServerEnv } from "../config/server-env.ts";
import type { SqlQueryable } from "./db/sql-executor.ts";
import { RateLimitedError } from "./errors.ts";

export interface RateLimit {
  /** Which call is limited, e.g. `newsletter`. */
  bucket: string;
  /** Most hits allowed per client within the window. */
  max: number;
  windowMs: number;
}

/**
 * Counts one hit for `clientKey` (e.g. the client IP) and throws 429 with the wait when the client
 * is over the limit. Stored in the database because function instances share no memory.
 * `env.RATE_LIMIT_MULTIPLIER` raises every limit (for load tests from one address).
 *
 * A sliding window from two fixed windows: the hits of the current window plus the previous
 * window's, weighted by how much of it still lies inside the last `windowMs`. One counter row per
 * client and window, so a check costs the same after ten hits or ten thousand; only allowed hits
 * count, so a refused client is not kept out longer for trying. Two concurrent checks on separate
 * connections may both see the last free hit: a limit may let one or two more through under a
 * race, which is fine for keeping scripts off the newsletter.
 */
export async function takeRateLimit(
  deps: { db: SqlQueryable; now: () => Date; env?: Pick<ServerEnv, "RATE_LIMIT_MULTIPLIER"> },
  limit: RateLimit,
  clientKey: string,
): Promise<void> {
  const max = limit.max * (deps.env?.RATE_LIMIT_MULTIPLIER ?? 1);
  const now = deps.now().getTime();
  const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
  const previousStart = windowStart - limit.windowMs;
  const previousWeight = 1 - (now - windowStart) / limit.windowMs;
  // One round trip: read both counters, drop older windows, and count the hit when it is allowed.
  const { rows } = await deps.db.query<{ previous: number; current: number; allowed: boolean }>(
    `WITH counters AS (
       SELECT coalesce(sum(hits) FILTER (WHERE window_start = $4), 0)::int AS previous,
              coalesce(sum(hits) FILTER (WHERE window_start = $3), 0)::int AS current
         FROM rate_limit_counters WHERE bucket = $1 AND client_key = $2 AND window_start >= $4
     ), pruned AS (
       DELETE FROM rate_limit_counters WHERE bucket = $1 AND client_key = $2 AND window_start < $4
     ), counted AS (
       INSERT INTO rate_limit_counters (bucket, client_key, window_start, hits)
       SELECT $1, $2, $3, 1 FROM counters WHERE previous * $5::float8 + current < $6
       ON CONFLICT (bucket, client_key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
       RETURNING 1
     )
     SELECT previous, current, EXISTS (SELECT 1 FROM counted) AS allowed FROM counters`,
    [limit.bucket, clientKey, new Date(windowStart), new Date(previousStart), previousWeight, max],
  );
  const row = rows[0];
  if (!row || row.allowed) return;
  throw new RateLimitedError("Too many requests. Please try again later.", retryAfterSeconds(row, max, limit.windowMs, now - windowStart));
}

/** Seconds until the weighted count falls below `max`, the hits staying as they are. */
export function retryAfterSeconds(counts: { previous: number; current: number }, max: number, windowMs: number, elapsedMs: number): number {
  const { previous, current } = counts;
  let waitMs: number;
  if (current < max) {
    // Within this window, once enough of the previous one has slid out.
    waitMs = windowMs * (1 - (max - current) / previous) - elapsedMs;
  } else {
    // In the next window, once enough of this one has slid out.
    waitMs = windowMs - elapsedMs + windowMs * (1 - max / current);
  }
  return Math.max(1, Math.ceil(waitMs / 1000));
}
