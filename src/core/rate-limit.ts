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
 */
export async function takeRateLimit(
  deps: { db: SqlQueryable; now: () => Date },
  limit: RateLimit,
  clientKey: string,
): Promise<void> {
  const now = deps.now();
  const since = new Date(now.getTime() - limit.windowMs);
  const { rows } = await deps.db.query<{ hits: number; oldest: Date | null }>(
    `WITH pruned AS (DELETE FROM rate_limit_hits WHERE bucket = $1 AND client_key = $2 AND hit_at <= $3)
     SELECT count(*)::int AS hits, min(hit_at) AS oldest FROM rate_limit_hits
      WHERE bucket = $1 AND client_key = $2 AND hit_at > $3`,
    [limit.bucket, clientKey, since],
  );
  const hits = rows[0]?.hits ?? 0;
  if (hits >= limit.max) {
    const oldest = rows[0]?.oldest ?? now;
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest.getTime() + limit.windowMs - now.getTime()) / 1000));
    throw new RateLimitedError("Too many requests. Please try again later.", retryAfterSeconds);
  }
  await deps.db.query("INSERT INTO rate_limit_hits (bucket, client_key, hit_at) VALUES ($1, $2, $3)", [
    limit.bucket,
    clientKey,
    now,
  ]);
}
