/**
 * The production build (`npm run build`, Netlify's build command): apply pending migrations to
 * the production database, then build the static site from it, then its search index from the built
 * pages (netlify/search-index.ts). A failed migration or index fails the build.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { migrateDatabase } from "./database/migrate.ts";
import { buildSearchIndex } from "./search-index.ts";

await migrateDatabase();
const astro = fileURLToPath(new URL("../node_modules/astro/bin/astro.mjs", import.meta.url));
const build = spawnSync(process.execPath, [astro, "build"], {
  stdio: "inherit",
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
});
if (build.status !== 0) process.exit(build.status ?? 1);
const siteDir = process.env.ASTRO_OUT_DIR ?? fileURLToPath(new URL("../dist", import.meta.url));
const searchIndex = await buildSearchIndex(siteDir);
console.log(`Search index: ${String(searchIndex.records)} records (${String(searchIndex.resources)} resources) in ${String(searchIndex.ms)} ms.`);
