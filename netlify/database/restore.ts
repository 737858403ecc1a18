/**
 * `npm run restore -- <backup.zip> [--replace]`: restores a backup archive into the configured site
 * (its database and Blobs store), migrations first. Run it where the site's variables are, e.g.
 * `netlify dev:exec npm run restore -- backup.zip` (Netlify CLI supplies the database URL and the
 * Blobs context). A site with content is refused unless `--replace`; a bad hash changes nothing.
 */
import { access } from "node:fs/promises";
import { bootApp } from "../../src/app/boot-app.ts";
import { restoreArchive } from "../../src/core/backups/restore-archive.ts";
import { applyMigrations, readMigrations } from "../../src/core/db/migrations.ts";

export async function restoreFromFile(file: string, options: { replace: boolean }): Promise<string> {
  // Read from the disk entry by entry, never whole: a backup of any size restores with flat memory.
  await access(file).catch(() => {
    throw new Error(`No such file: ${file}`);
  });
  const app = await bootApp(process.env);
  try {
    const applied = await applyMigrations(app.deps.db, await readMigrations());
    if (applied.length > 0) console.log(`Applied migrations: ${applied.join(", ")}`);
    const report = await restoreArchive(app.deps, file, options);
    // The site is rebuilt with the restored content; the hook call is awaited before the app closes.
    const calls: Promise<unknown>[] = [];
    app.deps.rebuild({ waitUntil: (call) => calls.push(call) });
    await Promise.all(calls);
    const restored = `Restored ${String(report.rows)} rows in ${String(report.tables)} tables and ${String(report.files)} files from ${file}.`;
    if (!report.skippedCount) return restored;
    const reasons = (report.skipped ?? []).map((entry) => `\n  ${entry.entry}${entry.row ? ` (${entry.row})` : ""}: ${entry.reason}`).join("");
    return `${restored}\nLeft out ${String(report.skippedCount)}, which fail the checks a save makes:${reasons}`;
  } finally {
    await app.close();
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const file = args.find((arg) => !arg.startsWith("--"));
  if (!file) {
    console.error("Usage: npm run restore -- <backup.zip> [--replace]");
    process.exit(2);
  }
  try {
    console.log(await restoreFromFile(file, { replace: args.includes("--replace") }));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
