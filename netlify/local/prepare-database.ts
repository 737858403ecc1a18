import { applyMigrations, readMigrations } from "../../src/core/db/migrations.ts";
import { seedDemoContent, type SeedDeps } from "./seed-demo.ts";

export interface PreparedDatabase {
  migrationsApplied: string[];
  seeded: boolean;
}

/** Brings a local database up to date and fills it with the demo site when it is empty. */
export async function prepareLocalDatabase(deps: SeedDeps): Promise<PreparedDatabase> {
  const migrationsApplied = await applyMigrations(deps.db, await readMigrations());
  const seeded = await seedDemoContent(deps);
  return { migrationsApplied, seeded };
}
