import type { SqlQueryable } from "./db/sql-executor.ts";

export interface Health {
  status: "ok";
  database: "ok";
  /** Round trip to the database, in milliseconds. */
  databaseMs: number;
}

/** Proves the service can reach its database (a real round trip, not a cached flag). */
export async function checkHealth(deps: { db: SqlQueryable }): Promise<Health> {
  const started = performance.now();
  await deps.db.query("SELECT 1");
  return { status: "ok", database: "ok", databaseMs: Math.round((performance.now() - started) * 10) / 10 };
}
