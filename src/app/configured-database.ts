import { connectDatabase } from "../adapters/connect-database.ts";
import { InvalidEnvironmentError } from "../config/env-errors.ts";
import { databaseUrl, type ServerEnv } from "../config/server-env.ts";
import type { SqlExecutor } from "../core/db/sql-executor.ts";

/** The configured database through its driver: DATABASE_URL, or Netlify DB's (or its local emulation's). */
export async function configuredDatabase(env: ServerEnv): Promise<SqlExecutor> {
  const url = databaseUrl(env);
  if (!url) {
    throw new InvalidEnvironmentError(["DATABASE_URL: no database configured (set DATABASE_URL, or enable Netlify DB which sets NETLIFY_DB_URL)"]);
  }
  // Netlify's local emulation serves a single Postgres session: one connection keeps callers from
  // interleaving inside each other's transactions.
  const localEmulation = !env.DATABASE_URL && env.NETLIFY_DB_DRIVER === "server";
  return connectDatabase(url, localEmulation ? { maxConnections: 1, preparedStatements: true } : {});
}
