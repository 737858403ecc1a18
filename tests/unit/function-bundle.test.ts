import { execFile, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { zipFunctions } from "@netlify/zip-it-and-ship-it";
import { parse as parseToml } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settingKeys } from "../../src/core/settings/settings.schema.ts";
import { databaseTargets, type TestDatabase } from "../support/test-databases.ts";
import { hashPassword } from "../../src/core/auth/password.ts";
import { runRequestHeader, signRunRequest } from "../../src/adapters/background-run.ts";
import { keyRing } from "../../src/core/shared/signer.ts";

// The deploy check: bundle the functions the way Netlify does, then load each bundle in a clean
// Node process — outside the repository, with only production variables — against PostgreSQL.
// A dev-only import, a file the bundler missed or top-level work on local state fails here.
const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const postgres = databaseTargets.find((target) => target.driver === "pg");

/** netlify.toml's `[functions]` (the bundler, the files added to or left out of every bundle), as Netlify's build reads it. */
async function functionsConfig(): Promise<{ nodeBundler?: "esbuild"; includedFiles: string[] }> {
  const toml = parseToml(await readFile(path.join(projectRoot, "netlify.toml"), "utf8")) as {
    functions?: { node_bundler?: "esbuild"; included_files?: string[] };
  };
  const { node_bundler: nodeBundler, included_files: includedFiles = [] } = toml.functions ?? {};
  return { ...(nodeBundler && { nodeBundler }), includedFiles };
}

/** Every file under `dir` with its size. */
async function filesIn(dir: string): Promise<{ file: string; bytes: number }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return { file: path.relative(dir, file), bytes: (await stat(file)).size };
      }),
  );
}

describe.skipIf(!postgres)("function bundles (needs TEST_DATABASE_URL)", () => {
  let testDb: TestDatabase;
  let outDir: string;
  let bundles: { name: string; path: string; invocationMode?: string | undefined }[];
  let productionEnv: Record<string, string>;

  beforeAll(async () => {
    testDb = await (postgres as NonNullable<typeof postgres>).createMigrated();
    outDir = await mkdtemp(path.join(tmpdir(), "nf-bundles-"));
    bundles = await zipFunctions([path.join(projectRoot, "netlify/functions")], outDir, {
      archiveFormat: "none",
      basePath: projectRoot,
      repositoryRoot: projectRoot,
      config: { "*": await functionsConfig() },
      // One function at a time: the file tracer's cache of the dependencies it parsed then serves every function after
      // the first. Five at once (the default) each parsed them anew: 76 s and 90 CPU-s against 37 s and 43 (decision 0095).
      parallelLimit: 1,
    });
    productionEnv = {
      PATH: process.env.PATH ?? "",
      SITE_ID: "bundle-check",
      DATABASE_URL: testDb.url as string,
      ADMIN_PASSWORD_HASH: await hashPassword("bundle check password"),
      SESSION_SECRET: "s".repeat(48),
      ADMIN_PATH: "owner-desk-check",
      SITE_URL: "https://nofilter.example",
      SMTP_URL: "smtp://127.0.0.1:1",
      MAIL_FROM: "No Filter <hello@nofilter.example>",
    };
    // Bundling the 13 functions took about 90 s beside the rest of the suite on the 2-core CI machine
    // before they were bundled one at a time (each function is the whole app, bundled apart); 120 s
    // ran out there once two more functions came (comments-waiting, comments-page).
  }, 300_000);
  afterAll(async () => {
    await testDb.drop();
    await rm(outDir, { recursive: true, force: true });
  });

  /** Loads a bundle's function in a fresh process and calls it once per path. */
  const callBundle = (bundleDir: string, paths: string[], env: Record<string, string>) => {
    const script = `
      const { default: handle } = await import("./netlify/functions/api.mjs");
      const answers = [];
      for (const path of ${JSON.stringify(paths)}) {
        const response = await handle(new Request("https://nofilter.example" + path), { ip: "203.0.113.9" });
        answers.push({ path, status: response.status, body: await response.text() });
      }
      console.log(JSON.stringify(answers));
      process.exit(0);
    `;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: bundleDir, env, encoding: "utf8" });
    return { ...result, answers: result.status === 0 ? (JSON.parse(result.stdout) as { path: string; status: number; body: string }[]) : [] };
  };

  it("bundles the API function for the /api/* path, the newsletter watchdog, the send's Background Function, scheduled publishing, previews, imports and backups", () => {
    expect(bundles.map((bundle) => bundle.name).sort()).toEqual([
      "account-comments-page",
      "api",
      "comments-page",
      "comments-waiting",
      "fediverse",
      "moving-background",
      "newsletter-send-background",
      "newsletter-watchdog",
      "preview",
      "publish-due-posts",
      "run-sequences",
      "weekly-backup",
      "weekly-digest",
    ]);
    expect(bundles.find((bundle) => bundle.name === "newsletter-send-background")?.invocationMode).toBe("background");
    expect(bundles.find((bundle) => bundle.name === "moving-background")?.invocationMode).toBe("background");
  });

  it("keeps every bundle well inside Netlify's 250 MB a function: no Node binary traced in from the one running the bundler", async () => {
    for (const bundle of bundles) {
      const files = await filesIn(bundle.path);
      expect(
        files.filter(({ file }) => /(^|\/)node_modules\/node\/bin\//.test(file)),
        bundle.name,
      ).toEqual([]);
      const megabytes = files.reduce((sum, { bytes }) => sum + bytes, 0) / 2 ** 20;
      expect(megabytes, bundle.name).toBeLessThan(100);
    }
  });

  it("runs the newsletter Background Function from its bundle alone, for a signed start only", async () => {
    const background = bundles.find((bundle) => bundle.name === "newsletter-send-background") as { path: string };
    // A send due: its one recipient unsubscribed since the start, so the run settles it (skipped)
    // and finishes the send without an SMTP server.
    const { rows } = await testDb.db.query<{ id: number }>(
      `WITH post AS (INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Bundle', '<p>x</p>', 'x', true, now()) RETURNING id),
            reader AS (INSERT INTO subscribers (email, status, source) VALUES ('bundle@example.com', 'unsubscribed', 'import') RETURNING id),
            send AS (INSERT INTO newsletter_sends (post_id, subject, html, text, total, created_at) SELECT id, 'Bundle', '<p>x</p>', 'x', 1, now() FROM post RETURNING id)
       INSERT INTO newsletter_recipients (send_id, subscriber_id) SELECT send.id, reader.id FROM send, reader RETURNING send_id AS id`,
    );
    const sendId = (rows[0] as { id: number }).id;
    const statusOf = async () =>
      (await testDb.db.query<{ status: string }>("SELECT status FROM newsletter_sends WHERE id = $1", [sendId])).rows[0]?.status;
    const start = (headers: Record<string, string>) => {
      const script = `
        const { default: run, config } = await import("./netlify/functions/newsletter-send-background.mjs");
        await run(new Request("https://nofilter.example/.netlify/functions/newsletter-send-background", { method: "POST", headers: ${JSON.stringify(headers)} }));
        console.log(JSON.stringify(config));
        process.exit(0);
      `;
      return spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: background.path, env: productionEnv, encoding: "utf8" });
    };

    const unsigned = start({
      [runRequestHeader]: signRunRequest(keyRing(["x".repeat(48)]), new Date(), { name: "newsletter-send-background", job: "run" }),
    });
    expect(unsigned.status, unsigned.stderr).toBe(0);
    expect(unsigned.stderr).toMatch(/background run refused: not a signed run request/);
    expect(await statusOf()).toBe("queued");

    const header = signRunRequest(keyRing([productionEnv.SESSION_SECRET as string]), new Date(), { name: "newsletter-send-background", job: "run" });
    const signed = start({ [runRequestHeader]: header });
    expect(signed.status, signed.stderr).toBe(0);
    expect(signed.stdout).toMatch(new RegExp(`send ${String(sendId)}: 0 sent, 0 failed, 1 skipped, done`));
    expect(JSON.parse(signed.stdout.trim().split("\n").pop() ?? "{}")).toEqual({ background: true });
    expect(await statusOf()).toBe("sent");

    // A captured start, replayed: refused before any work.
    const replayed = start({ [runRequestHeader]: header });
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(replayed.stderr).toMatch(/background run refused: this start was already used/);
    expect(replayed.stdout).not.toMatch(/send \d+:/);
  });

  it("runs the imports' and backups' Background Function from its bundle alone, for a signed start only, and the weekly backup on its schedule", () => {
    const background = bundles.find((bundle) => bundle.name === "moving-background") as { path: string };
    const start = (headers: Record<string, string>) => {
      const script = `
        const { default: run, config } = await import("./netlify/functions/moving-background.mjs");
        await run(new Request("https://nofilter.example/.netlify/functions/moving-background", { method: "POST", headers: ${JSON.stringify(headers)} }));
        console.log(JSON.stringify(config));
        process.exit(0);
      `;
      return spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: background.path, env: productionEnv, encoding: "utf8" });
    };
    const job = { name: "moving-background", job: "import-2000000000" };
    const unsigned = start({ [runRequestHeader]: signRunRequest(keyRing(["x".repeat(48)]), new Date(), job) });
    expect(unsigned.status, unsigned.stderr).toBe(0);
    expect(unsigned.stderr).toMatch(/background run refused: not a signed run request/);
    // The newsletter's start does not start this function.
    const newsletterStart = signRunRequest(keyRing([productionEnv.SESSION_SECRET as string]), new Date(), {
      name: "newsletter-send-background",
      job: "run",
    });
    expect(start({ [runRequestHeader]: newsletterStart }).stderr).toMatch(/background run refused: not a signed run request/);
    const header = signRunRequest(keyRing([productionEnv.SESSION_SECRET as string]), new Date(), job);
    const signed = start({ [runRequestHeader]: header });
    expect(signed.status, signed.stderr).toBe(0);
    expect(signed.stdout).toMatch(/import 2000000000 finished/);
    expect(JSON.parse(signed.stdout.trim().split("\n").pop() ?? "{}")).toEqual({ background: true });
    expect(start({ [runRequestHeader]: header }).stderr).toMatch(/this start was already used/);

    const weekly = bundles.find((bundle) => bundle.name === "weekly-backup") as { path: string };
    const script = `
      const { config } = await import("./netlify/functions/weekly-backup.mjs");
      console.log(JSON.stringify(config));
      process.exit(0);
    `;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: weekly.path, env: productionEnv, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim().split("\n").pop() ?? "{}")).toEqual({ schedule: "@daily" });
  });

  it("runs the newsletter watchdog from its bundle alone, on its schedule", () => {
    const watchdog = bundles.find((bundle) => bundle.name === "newsletter-watchdog") as { path: string };
    const script = `
      const { default: run, config } = await import("./netlify/functions/newsletter-watchdog.mjs");
      await run();
      console.log(JSON.stringify(config));
      process.exit(0);
    `;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: watchdog.path, env: productionEnv, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim().split("\n").pop() ?? "{}")).toEqual({ schedule: "* * * * *" });
  });

  it("publishes due scheduled posts from its bundle alone, calls the build hook, on its schedule", async () => {
    const publisher = bundles.find((bundle) => bundle.name === "publish-due-posts") as { path: string };
    const { rows } = await testDb.db.query<{ id: number; later: boolean }>(
      `INSERT INTO posts (title, content, published, publish_at)
       VALUES ('Due', '<p>x</p>', false, now() - interval '1 minute'), ('Later', '<p>x</p>', false, now() + interval '1 hour')
       RETURNING id, title = 'Later' AS later`,
    );
    const hookCalls: string[] = [];
    const hook = createServer((request, response) => {
      hookCalls.push(request.method ?? "");
      response.writeHead(200).end();
    });
    hook.listen(0, "127.0.0.1");
    await once(hook, "listening");
    try {
      const script = `
        const { default: run, config } = await import("./netlify/functions/publish-due-posts.mjs");
        await run();
        console.log(JSON.stringify(config));
        process.exit(0);
      `;
      const env = { ...productionEnv, BUILD_HOOK_URL: `http://127.0.0.1:${String((hook.address() as AddressInfo).port)}/build_hooks/check` };
      const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: publisher.path, env });
      expect(JSON.parse(stdout.trim().split("\n").pop() ?? "{}")).toEqual({ schedule: "* * * * *" });
      expect(hookCalls).toEqual(["POST"]);
    } finally {
      hook.close();
    }
    const states = await testDb.db.query<{ id: number; published: boolean }>(
      "SELECT id, published FROM posts WHERE id = ANY($1::int[]) ORDER BY id",
      [rows.map((row) => row.id)],
    );
    expect(states.rows.map((row) => row.published)).toEqual(rows.map((row) => !row.later));
  });

  it("answers from the bundle alone with production variables", () => {
    const api = bundles.find((bundle) => bundle.name === "api") as { path: string };
    const { answers, stderr, status } = callBundle(api.path, ["/api/health", "/api/site-settings", "/api/blog-posts?published=true"], productionEnv);
    expect(status, stderr).toBe(0);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(JSON.parse(answers[0]?.body ?? "{}")).toMatchObject({ status: "ok", database: "ok" });
    expect(JSON.parse(answers[1]?.body ?? "[]")).toHaveLength(settingKeys.length);
  });

  it("serves previews from a bundle of its own on /preview/*, never cached", () => {
    const preview = bundles.find((bundle) => bundle.name === "preview") as { path: string };
    // A link that was never made is refused before any template is fetched (no network here).
    const script = `
      const { default: handle, config } = await import("./netlify/functions/preview.mjs");
      const wrongMethod = await handle(new Request("https://nofilter.example/preview/1/abc", { method: "POST" }));
      console.log(JSON.stringify({ path: config.path, status: wrongMethod.status, cache: wrongMethod.headers.get("cache-control") }));
      process.exit(0);
    `;
    const { stdout, stderr, status } = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: preview.path,
      env: productionEnv,
      encoding: "utf8",
    });
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout.trim().split("\n").pop() ?? "{}")).toEqual({ path: "/preview/*", status: 405, cache: "no-store" });
  });

  it("answers WebFinger and the site's actor from the fediverse function's bundle alone (issue 45)", () => {
    const fediverse = bundles.find((bundle) => bundle.name === "fediverse") as { path: string };
    const script = `
      const { default: handle, config } = await import("./netlify/functions/fediverse.mjs");
      const finger = await handle(new Request("https://nofilter.example/.well-known/webfinger?resource=acct:nofilter@nofilter.example"), { waitUntil: () => {} });
      const actor = await handle(new Request("https://nofilter.example/fediverse/actor", { headers: { accept: "application/activity+json" } }), { waitUntil: () => {} });
      const body = await actor.json();
      console.log(JSON.stringify({ path: config.path, finger: finger.status, actor: actor.status, type: body.type, inbox: body.inbox }));
      process.exit(0);
    `;
    const { stdout, stderr, status } = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fediverse.path,
      env: productionEnv,
      encoding: "utf8",
    });
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout.trim().split("\n").pop() ?? "{}")).toEqual({
      path: ["/.well-known/webfinger", "/.well-known/nodeinfo", "/nodeinfo/2.1", "/fediverse/*"],
      finger: 200,
      actor: 200,
      type: "Service",
      inbox: "https://nofilter.example/fediverse/inbox",
    });
  });

  it("names the missing variable when production configuration is incomplete", () => {
    const api = bundles.find((bundle) => bundle.name === "api") as { path: string };
    const withoutDatabase = Object.fromEntries(Object.entries(productionEnv).filter(([name]) => name !== "DATABASE_URL"));
    const { answers, stderr } = callBundle(api.path, ["/api/health"], withoutDatabase);
    expect(answers[0]?.status).toBe(500);
    expect(answers[0]?.body).not.toMatch(/DATABASE_URL/);
    expect(stderr).toMatch(/DATABASE_URL: no database configured in production/);
  });
});
