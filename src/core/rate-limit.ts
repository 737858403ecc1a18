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
 */
export async function takeRateLimit(
  deps: { db: SqlQueryable; now: () => Date; env?: Pick<ServerEnv, "RATE_LIMIT_MULTIPLIER"> },
  limit: RateLimit,
  clientKey: string,
): Promise<void> {
  const max = limit.max * (deps.env?.RATE_LIMIT_MULTIPLIER ?? 1);
  const now = deps.now();
  const since = new Date(now.getTime() - limit.windowMs);
  // One round trip: prune, count (no further than the limit: a client far over it costs no more
  // than one at it), and record the hit only when it is allowed. Under load this halved the
  // database calls of every public write (issue 6).
  const { rows } = await deps.db.query<{ hits: number; oldest: Date | null }>(
    `WITH pruned AS (
       DELETE FROM rate_limit_hits WHERE bucket = $1 AND client_key = $2 AND hit_at <= $3
     ), recent AS (
       SELECT hit_at FROM rate_limit_hits WHERE bucket = $1 AND client_key = $2 AND hit_at > $3
        ORDER BY hit_at LIMIT $5
     ), counted AS (
       SELECT count(*)::int AS hits, min(hit_at) AS oldest FROM recent
     ), recorded AS (
       INSERT INTO rate_limit_hits (bucket, client_key, hit_at) SELECT $1, $2, $4 FROM counted WHERE hits < $5
     )
     SELECT hits, oldest FROM counted`,
    [limit.bucket, clientKey, since, now, max],
  );
  const hits = rows[0]?.hits ?? 0;
  if (hits >= max) {
    const oldest = rows[0]?.oldest ?? now;
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest.getTime() + limit.windowMs - now.getTime()) / 1000));
    throw new RateLimitedError("Too many requests. Please try again later.", retryAfterSeconds);
  }
}
