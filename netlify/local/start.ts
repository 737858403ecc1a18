/**
 * `npm start`: the whole site on one machine, with no account and no cloud. Netlify's local
 * emulation provides the database, static files, headers and redirects; Blobs run on loopback
 * (local-blobs.ts); `/api/*` is answered
 * by one warm in-process app, put together by `createApp` as the function entry does. Email goes to
 * an embedded SMTP catcher shown in the local inbox page, unless SMTP_URL sends it out.
 */
import { randomBytes } from "node:crypto";
import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { NetlifyDev } from "@netlify/dev";
import { apiPaths } from "../../src/api/api-paths.ts";
import { answerAccountCommentsPage } from "../../src/api/account-comments-page.ts";
import { answerCommentsPage } from "../../src/api/comments-page.ts";
import { answerPreview, siteTemplates } from "../../src/api/preview-page.ts";
import { withUser } from "../../src/adapters/connect-database.ts";
import { bootApp } from "../../src/app/boot-app.ts";
import { noKick } from "../../src/core/newsletter/newsletter-background.ts";
import { databaseUrl } from "../../src/config/server-env.ts";
import { apiReferencePath } from "./api-reference.ts";
import { inboxPath } from "./inbox.ts";
import { createLocalHub, websubHubPath } from "./websub-hub.ts";
import { startLocalBlobs } from "./local-blobs.ts";
import { loadLocalSecrets, writePrivateFile } from "./local-secrets.ts";
import { adminLoginLine, localRuntimeEnv, readLocalEnvOrExit } from "./local-env.ts";
import { createLocalServer, type LocalSite } from "./local-server.ts";
import { readSiteHeaders } from "./site-headers.ts";
import { caughtMailLog } from "./caught-mail-log.ts";
import { startMailCatcher, type MailCatcher } from "./mail-catcher.ts";
import { threadedSmtpMailer } from "./threaded-mailer.ts";
import { readNotFoundRules } from "./not-found-rules.ts";
import { prepareLocalDatabase } from "./prepare-database.ts";
import { SiteBuilder } from "./site-builder.ts";
import { startDatabaseThread } from "./threaded-database.ts";
import { startJobTicker } from "./ticker.ts";

const started = performance.now();
const elapsed = () => `${String(Math.round(performance.now() - started))} ms`;
const log = (message: string) => console.log(`[no-filter] ${message}`);

const projectRoot = fileURLToPath(new URL("../../", import.meta.url));
// LOCAL_STATE_DIR keeps a second site (e.g. the browser tests') apart from the developer's own:
// its database, files, builds and secrets all live under that folder.
const siteRoot = process.env.LOCAL_STATE_DIR ? path.resolve(process.env.LOCAL_STATE_DIR) : projectRoot;
const stateDir = path.join(siteRoot, ".netlify");
if (siteRoot !== projectRoot) {
  await mkdir(siteRoot, { recursive: true });
  await copyFile(path.join(projectRoot, "netlify.toml"), path.join(siteRoot, "netlify.toml"));
}

const { secrets } = await loadLocalSecrets(stateDir);
const env = readLocalEnvOrExit(process.env, secrets);

const siteUrl = env.SITE_URL ?? `http://localhost:${String(env.PORT)}`;
const buildHookPath = `/.netlify/local/build-hook/${randomBytes(12).toString("hex")}`;
const buildHookUrl = env.BUILD_HOOK_URL ?? `http://localhost:${String(env.PORT)}${buildHookPath}`;

// Listen first: a taken port fails here, before the database folder is opened a second time.
const ready: { site?: LocalSite } = {};
const server = createLocalServer(() => ready.site, { siteUrl });
await new Promise<void>((resolve) => {
  server.once("error", (error) => {
    console.error(`[no-filter] Cannot listen on ${env.HOST}:${String(env.PORT)}: ${error.message} (set PORT to another port)`);
    process.exit(1);
  });
  server.listen(env.PORT, env.HOST, resolve);
});

// No SMTP_URL: mail is caught locally (kept in .netlify/mail) and shown in the inbox page.
let mailCatcher: MailCatcher | undefined;
if (!env.SMTP_URL) {
  mailCatcher = await startMailCatcher({
    dir: path.join(stateDir, "mail"),
    port: env.MAIL_CATCHER_PORT,
    onMessage: caughtMailLog({ log, inboxUrl: `${siteUrl}${inboxPath}` }).onMessage,
    outageMs: env.MAIL_CATCHER_OUTAGE_MS,
  }).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(`[no-filter] Cannot start the local mail catcher: ${reason} (set MAIL_CATCHER_PORT to another port)`);
    process.exit(1);
  });
}

const netlifyDev = new NetlifyDev({
  projectRoot: siteRoot,
  aiGateway: { enabled: false },
  // Its Blobs server listens on every interface; ours, started below, on 127.0.0.1 only.
  blobs: { enabled: false },
  edgeFunctions: { enabled: false },
  environmentVariables: { enabled: false },
  functions: { enabled: false },
  geolocation: { enabled: false },
  // Netlify Image CDN's emulation: every public image is asked for at the width a screen needs.
  images: { enabled: true },
  // The database emulation runs in a thread of its own, started below.
  database: { enabled: false },
  serverAddress: null,
});
await netlifyDev.start();
// Without DATABASE_URL: Netlify's database emulation, in its own thread (decision 0043), at the
// folder and under the names NetlifyDev gives it.
const databaseThread = env.DATABASE_URL ? undefined : await startDatabaseThread({ directory: path.join(stateDir, "db") });
if (databaseThread) {
  process.env.NETLIFY_DB_URL = databaseThread.url;
  process.env.NETLIFY_DB_DRIVER = "server";
}
const blobs = await startLocalBlobs(stateDir);

// The emulations have put the database URL and Blobs context into this process's environment. The
// app and the site builds get that environment plus the local settings; nothing is written back.
const runtimeEnv = {
  ...process.env,
  ...localRuntimeEnv(env, siteUrl),
  BUILD_HOOK_URL: buildHookUrl,
  // The password came from the local secrets file: the dashboard's setup checklist asks for the owner's own.
  ...(!process.env.ADMIN_PASSWORD && !process.env.ADMIN_PASSWORD_HASH && { ADMIN_PASSWORD_GENERATED: "1" }),
};
// Built once: `/api/*` is answered by this warm, in-process app, as by a warm Netlify instance.
const app = await bootApp(runtimeEnv, {
  // Mail goes to the local catcher unless SMTP_URL is set, from a thread of its own (decision 0020).
  localMail: { smtpUrl: mailCatcher?.url, transport: threadedSmtpMailer },
  // The in-process timer below runs the sends: nothing to kick.
  overrides: { kickSends: noKick, providerPauseMs: env.PROVIDER_PAUSE_MS },
});
const serverEnv = app.deps.env;
const prepared = await prepareLocalDatabase(app.deps);
if (prepared.migrationsApplied.length > 0) log(`Applied migrations: ${prepared.migrationsApplied.join(", ")}`);
if (prepared.seeded) log("Seeded the demo content.");

// The local WebSub hub the site names when the `websub_hub` setting is empty (decision 0077).
const websubHub = createLocalHub();
const websubHubUrl = `${siteUrl}${websubHubPath}`;

const publishDir = path.join(siteRoot, "dist");
const builder = new SiteBuilder({
  projectRoot,
  publishDir,
  buildsDir: path.join(stateDir, "builds"),
  // Each site's build output and cache live in its state folder: servers of one checkout build apart.
  cacheDir: path.join(stateDir, "astro-cache"),
  env: runtimeEnv,
  log,
});
await builder.removeStaleBuilds();
if (await builder.hasSite()) {
  // A warm restart serves the last build at once and refreshes it in the background.
  void builder.request();
} else {
  log("Building the site…");
  const first = await builder.request();
  if (!first.ok) {
    console.error("[no-filter] The first site build failed; see the output above.");
    process.exit(1);
  }
}

ready.site = {
  api: app.handleApi,
  preview: (request) => answerPreview(app.deps, request, siteTemplates(request)),
  commentsPage: (request) => answerCommentsPage(app.deps, request, siteTemplates(request)),
  // The Accept of a follow goes after the answer, as on Netlify (the watchdog's tick sends what is left).
  fediverse: (request) => app.handleFediverse(request, { waitUntil: (run) => void run }),
  accountCommentsPage: (request) => answerAccountCommentsPage(app.deps, request, siteTemplates(request)),
  netlifyDev,
  publishDir,
  siteHeaders: await readSiteHeaders(path.join(projectRoot, "netlify.toml")),
  notFoundRules: await readNotFoundRules(path.join(projectRoot, "netlify.toml")),
  buildHookPath,
  // A content change: only what changed is rendered once this server's first build is live (decision 0089).
  onBuildHook: () => void builder.change(),
  mailCatcher,
  websubHub,
};

// The background jobs run in this process, each row of src/app/background-jobs.ts on its local
// interval, as the Scheduled Functions do on Netlify: newsletter sends start within a second and a
// send interrupted by a kill resumes once its leases run out; scheduled posts go live.
const ticker = startJobTicker(app, { log });

const adminUrl = `${siteUrl}/${env.ADMIN_PATH ?? ""}`;
const inboxUrl = mailCatcher && `${siteUrl}${inboxPath}`;
// For tools and tests that drive this server (the build hook, the database behind it).
await writePrivateFile(
  path.join(stateDir, "local-server.json"),
  JSON.stringify(
    {
      siteUrl,
      adminUrl,
      buildHookUrl,
      databaseUrl: withUser(databaseUrl(serverEnv) ?? ""),
      ...(mailCatcher && { inboxUrl, mailCatcherUrl: mailCatcher.url }),
      websubHubUrl,
    },
    null,
    2,
  ),
);
// Where the generated password really is: under LOCAL_STATE_DIR when it moved the state.
const secretsFile = path.join(stateDir, "local-secrets.json");
const secretsFileShown = secretsFile.startsWith(projectRoot) ? path.relative(projectRoot, secretsFile) : secretsFile;
console.log(
  [
    "",
    `  No Filter is running (ready in ${elapsed()})`,
    `  Site:     ${siteUrl}`,
    `  Admin:    ${adminUrl}`,
    // The host only: SMTP_URL carries the provider's credentials.
    inboxUrl ? `  Inbox:    ${inboxUrl}` : `  Email:    sent through ${new URL(env.SMTP_URL ?? "smtp://localhost").host} (SMTP_URL)`,
    `  WebSub:   ${websubHubUrl} (the local hub: the pings after a publish)`,
    `  Login:    ${adminLoginLine(env, process.env, secretsFileShown)}`,
    `  API:      ${siteUrl}${apiReferencePath} (reference of ${siteUrl}${apiPaths.openApi})`,
    `  Build hook (local): POST ${buildHookUrl}`,
    "",
    "  Next: open the Admin address, sign in, and replace the demo values (Site Settings: contact",
    "  email, social links, postal address; the demo posts and resources). Stop with Ctrl+C.",
    "",
  ].join("\n"),
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  log("Stopping…");
  ticker.stop();
  builder.stop();
  server.close();
  server.closeAllConnections();
  await app.close().catch(() => undefined);
  await mailCatcher?.close().catch(() => undefined);
  await netlifyDev.stop();
  await databaseThread?.stop();
  await blobs.close();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
