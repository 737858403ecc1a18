/** `npm run migrate`: applies pending migrations to the configured database (build step on Netlify). */
import { InvalidEnvironmentError } from "../../src/config/env-errors.ts";
import { databaseUrl, readServerEnv } from "../../src/config/server-env.ts";
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { applyMigrations, readMigrations } from "../../src/core/db/migrations.ts";

export async function migrateDatabase(): Promise<void> {
  const url = databaseUrl(readServerEnv(process.env));
  if (!url) throw new InvalidEnvironmentError(["DATABASE_URL: not set (nor NETLIFY_DB_URL): no database to migrate"]);
  // No statement timeout: a migration may rightly wait on another's lock or build an index.
  const db = await connectDatabase(url, { timeouts: { statementMs: 0 } });
  try {
    const applied = await applyMigrations(db, await readMigrations());
    console.log(applied.length > 0 ? `Applied migrations: ${applied.join(", ")}` : "Database schema is up to date.");
  } finally {
    await db.close();
  }
}

if (import.meta.main) {
  try {
    await migrateDatabase();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
