/**
 * The production build (`npm run build`, Netlify's build command): apply pending migrations to
 * the production database, then build the static site from it. A failed migration fails the build.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { migrateDatabase } from "./database/migrate.ts";

await migrateDatabase();
const astro = fileURLToPath(new URL("../node_modules/astro/bin/astro.mjs", import.meta.url));
const build = spawnSync(process.execPath, [astro, "build"], {
  stdio: "inherit",
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
});
process.exit(build.status ?? 1);
