/**
 * `npm run dev`: `astro dev` with hot reload. The Netlify adapter's Vite plugin brings the
 * functions under /api, Blobs and the local database (migrated and seeded on start, see
 * astro-local-database.ts); this wrapper supplies the same generated local secrets as `npm start`
 * and, without SMTP_URL, the same mail catcher (the caught mail is logged here; `npm start`'s inbox
 * page shows it, from the same `.netlify/mail`).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadLocalSecrets } from "./local-secrets.ts";
import { localRuntimeEnv, readLocalEnvOrExit } from "./local-env.ts";
import { startMailCatcher } from "./mail-catcher.ts";

const projectRoot = fileURLToPath(new URL("../../", import.meta.url));
const { secrets } = await loadLocalSecrets(path.join(projectRoot, ".netlify"));
const env = readLocalEnvOrExit(process.env, secrets);

const siteUrl = env.SITE_URL ?? `http://localhost:${String(env.PORT)}`;
console.log(
  `[no-filter] Admin: ${siteUrl}/${env.ADMIN_PATH ?? ""}  Login: ${env.ADMIN_USERNAME} / ${env.ADMIN_PASSWORD ?? "(from ADMIN_PASSWORD_HASH)"}`,
);
const catcher = env.SMTP_URL
  ? undefined
  : await startMailCatcher({
      dir: path.join(projectRoot, ".netlify", "mail"),
      port: env.MAIL_CATCHER_PORT,
      onMessage: (summary) =>
        void catcher?.read(summary.id).then((mail) => {
          const links = mail?.links.map((link) => `\n    ${link}`).join("") ?? "";
          console.log(`[no-filter] Caught "${summary.subject}" to ${summary.to.join(", ")}${links}`);
        }),
    });
const astro = path.join(projectRoot, "node_modules", "astro", "bin", "astro.mjs");
const child = spawn(process.execPath, [astro, "dev", "--port", String(env.PORT), ...process.argv.slice(2)], {
  cwd: projectRoot,
  stdio: "inherit",
  env: { ...process.env, ...localRuntimeEnv(env, siteUrl), ...(catcher && { SMTP_URL: catcher.url }) },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
