/**
 * `npm run dev`: `astro dev` with hot reload. The Netlify adapter's Vite plugin brings the
 * functions under /api, Blobs and the local database (migrated and seeded on start, see
 * astro-local-database.ts); this wrapper only supplies the same generated local secrets as `npm start`.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadLocalSecrets } from "./local-secrets.ts";
import { localRuntimeEnv, readLocalEnvOrExit } from "./local-env.ts";

const projectRoot = fileURLToPath(new URL("../../", import.meta.url));
const { secrets } = await loadLocalSecrets(path.join(projectRoot, ".netlify"));
const env = readLocalEnvOrExit(process.env, secrets);

const siteUrl = env.SITE_URL ?? `http://localhost:${String(env.PORT)}`;
console.log(
  `[no-filter] Admin: ${siteUrl}/${env.ADMIN_PATH ?? ""}  Login: ${env.ADMIN_USERNAME} / ${env.ADMIN_PASSWORD ?? "(from ADMIN_PASSWORD_HASH)"}`,
);
const astro = path.join(projectRoot, "node_modules", "astro", "bin", "astro.mjs");
const child = spawn(process.execPath, [astro, "dev", "--port", String(env.PORT), ...process.argv.slice(2)], {
  cwd: projectRoot,
  stdio: "inherit",
  env: { ...process.env, ...localRuntimeEnv(env, siteUrl) },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
