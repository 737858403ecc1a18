import { readdir, readFile } from "node:fs/promises";
import type { SqlExecutor } from "./sql-executor.ts";

export interface Migration {
  /** File name without `.sql`, e.g. `0001_initial`; migrations apply in name order. */
  name: string;
  sql: string;
}

/** Netlify's convention: `netlify/database/migrations/NNNN_name.sql`. */
export const migrationsDir = new URL("../../../netlify/database/migrations/", import.meta.url);

const migrationFile = /^\d{4}_[a-z0-9_-]+\.sql$/;

export async function readMigrations(dir: URL | string = migrationsDir): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((name) => migrationFile.test(name)).sort();
  return Promise.all(
    names.map(async (file) => ({
      name: file.replace(/\.sql$/, ""),
      sql: await readFile(new URL(file, dirUrl(dir)), "utf8"),
    })),
  );
}

function dirUrl(dir: URL | string): URL {
  if (dir instanceof URL) return dir;
  return new URL(`file://${dir.endsWith("/") ? dir : `${dir}/`}`);
}

// Any fixed number: every runner of this project takes the same transaction-scoped lock, so two
// deploys (or a deploy and a local start) never apply the same migration twice.
const migrationLockKey = 7_204_173;

/**
 * Applies the migrations not yet recorded in `schema_migrations`, each in its own transaction
 * (a failing one leaves nothing half-applied and stops the run). Returns the names applied.
 */
export async function applyMigrations(db: SqlExecutor, migrations: readonly Migration[]): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of migrations) {
    const ran = await db
      .transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock($1)", [migrationLockKey]);
        await tx.exec("CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
        const done = await tx.query("SELECT 1 FROM schema_migrations WHERE name = $1", [migration.name]);
        if (done.rows.length > 0) return false;
        await tx.exec(migration.sql);
        await tx.query("INSERT INTO schema_migrations (name) VALUES ($1)", [migration.name]);
        return true;
      })
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`Migration ${migration.name} failed and was rolled back: ${reason}`, { cause: error });
      });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
