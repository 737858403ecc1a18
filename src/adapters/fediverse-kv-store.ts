import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import type { SqlQueryable } from "../core/db/sql-executor.ts";
import type { Clock } from "../core/shared/clock.ts";

/**
 * Fedify's key-value store over the site's database (table `fediverse_kv`): its caches of remote
 * keys and documents and its inbox idempotence outlive a function instance, with no Redis
 * (issue 45 point 6; decision 0087). A key is its parts joined by a newline (no part holds one).
 */
const joined = (key: KvKey) => key.join("\n");

export function dbKvStore(deps: { db: SqlQueryable; now: Clock["now"] }): KvStore {
  const ttlAt = (options?: KvStoreSetOptions) => {
    // Temporal.Duration (Fedify's polyfill): only its length is read.
    const ttl = options?.ttl as { total: (unit: "millisecond") => number } | undefined;
    if (!ttl) return null;
    return new Date(deps.now().getTime() + ttl.total("millisecond"));
  };
  return {
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      const { rows } = await deps.db.query<{ value: T }>(
        "SELECT value FROM fediverse_kv WHERE key = $1 AND (expires_at IS NULL OR expires_at > $2)",
        [joined(key), deps.now()],
      );
      return rows[0]?.value;
    },
    async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
      await deps.db.query(
        `INSERT INTO fediverse_kv (key, value, expires_at) VALUES ($1, $2::jsonb, $3)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
        [joined(key), JSON.stringify(value), ttlAt(options)],
      );
    },
    async delete(key: KvKey): Promise<void> {
      await deps.db.query("DELETE FROM fediverse_kv WHERE key = $1", [joined(key)]);
    },
    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      const start = prefix && prefix.length > 0 ? joined(prefix) : null;
      const { rows } = await deps.db.query<{ key: string; value: unknown }>(
        `SELECT key, value FROM fediverse_kv
          WHERE (expires_at IS NULL OR expires_at > $2) AND ($1::text IS NULL OR key = $1 OR left(key, length($1) + 1) = $1 || E'\\n')
          ORDER BY key`,
        [start, deps.now()],
      );
      for (const row of rows) yield { key: row.key.split("\n") as unknown as KvKey, value: row.value };
    },
  };
}
