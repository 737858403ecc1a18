import type { SqlQueryable } from "./db/sql-executor.ts";
import type { Health } from "./health.schema.ts";

/** Proves the service can reach its database (a real round trip, not a cached flag). */
export async function checkHealth(deps: { db: SqlQueryable }): Promise<Health> {
  const started = performance.now();
  await deps.db.query("SELECT 1");
  return { status: "ok", database: "ok", databaseMs: Math.round((performance.now() - started) * 10) / 10 };
}
