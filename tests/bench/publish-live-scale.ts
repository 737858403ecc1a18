/**
 * Publish → live on a large site (issue 39 point 4): `npm start` on PostgreSQL over a scratch database
 * seeded with `posts` published posts (the first build is a full one, with the share images cached), then drafts published through
 * the API one after another, each timed until it is live everywhere it appears: its page, `/blog`, its
 * category's list, the home page, the feed, the sitemap and the search's delta
 * (docs/decisions/0089-incremental-site-build.md). Between runs it waits until the builder is idle
 * (the pass that renders the later, shifted list pages), so each run starts from a quiet site.
 *   node tests/bench/publish-live-scale.ts [postgresAdminUrl] [posts] [runs] [databaseName]
 */
import { readFile, rm, mkdtemp } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { formData } from "../support/multipart.ts";
import { adminCookie } from "./admin-session.ts";
import { seedDrafts, seedPublishedPosts } from "./bulk-seed.ts";
import { warmShareImages } from "./full-build-scale.ts";
import { readAdminPassword, serverLogPath, startLocalSite, stopLocalSite } from "./local-site.ts";

export interface PublishLiveScaleFigures {
  posts: number;
  /** From spawning `npm start` to its first page (the first, full build). */
  firstBuildSeconds: number;
  /** Each publish → live everywhere, sorted. */
  seconds: number[];
  /** The 1-minute load average at each run's start. */
  load: number[];
}

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function onAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Resolves when every page in `checks` shows its text; seconds since `started`. */
async function waitUntilLive(siteUrl: string, checks: [string, string][], started: number, timeoutMs = 300_000): Promise<number> {
  const pending = new Map(checks);
  while (pending.size > 0) {
    if (performance.now() - started > timeoutMs) throw new Error(`not live within ${String(timeoutMs / 1000)} s: ${[...pending.keys()].join(", ")}`);
    for (const [page, text] of pending) {
      const response = await fetch(new URL(page, siteUrl), { cache: "no-store" }).catch(() => undefined);
      if (response?.ok && (await response.text()).includes(text)) pending.delete(page);
    }
    if (pending.size > 0) await sleep(50);
  }
  return (performance.now() - started) / 1000;
}

/** Waits until the server's log shows the builder idle: its last incremental pass left nothing for a next one. */
async function waitForIdleBuilder(logStart: number, timeoutMs = 600_000): Promise<void> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const lines = (await readFile(serverLogPath, "utf8")).slice(logStart).split("\n");
    const last = lines.filter((line) => line.includes("Site updated in") || line.includes("Incremental build failed")).at(-1);
    if (last && !last.includes("next pass")) return;
    await sleep(500);
  }
  throw new Error("the builder did not settle");
}

export async function measurePublishLiveAtScale(
  adminUrl: string,
  siteUrl: string,
  posts: number,
  runs = 3,
  databaseName = `nf_bench_live_${String(process.pid)}`,
): Promise<PublishLiveScaleFigures> {
  await onAdmin(adminUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await onAdmin(adminUrl, `CREATE DATABASE ${databaseName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  const databaseUrl = url.href;
  const stateDir = await mkdtemp(path.join(tmpdir(), "nf-bench-live-"));
  try {
    const migrated = spawnSync(process.execPath, ["netlify/database/migrate.ts"], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    if (migrated.status !== 0) throw new Error(`migrations failed: ${migrated.stderr.toString()}`);
    await seedPublishedPosts(databaseUrl, posts);
    const drafts = await seedDrafts(databaseUrl, runs);
    // The share images cached, as a site that has built before has them (a first build draws every card once: 10,000
    // cards are minutes of drawing that no publish pays); the drafts' cards are drawn when they are published.
    await warmShareImages(databaseUrl, path.join(stateDir, "astro-cache"));
    const site = await startLocalSite(siteUrl, stateDir, { DATABASE_URL: databaseUrl });
    try {
      const password = await readAdminPassword(stateDir);
      const headers = { origin: new URL(siteUrl).origin, cookie: await adminCookie(siteUrl, password) };
      const seconds: number[] = [];
      const load: number[] = [];
      for (const id of drafts) {
        const logStart = (await readFile(serverLogPath, "utf8")).length;
        const title = `Live at scale ${String(Date.now())}`;
        load.push(loadavg()[0] ?? 0);
        const started = performance.now();
        const body = formData({ title, content: `<p>${title}: zebracorn.</p>`, published: "true", category: "Funding" });
        const publish = await fetch(new URL(`/api/blog-posts/${String(id)}`, siteUrl), { method: "PUT", headers, body });
        if (!publish.ok) throw new Error(`publishing failed: ${String(publish.status)} ${await publish.text()}`);
        const { slug } = (await publish.json()) as { slug: string };
        seconds.push(
          await waitUntilLive(
            siteUrl,
            [
              [`/blog/${slug}`, title],
              ["/blog", title],
              ["/blog/category/funding", title],
              ["/", title],
              ["/rss.xml", title],
              ["/sitemap-0.xml", `/blog/${slug}/`],
              ["/pagefind/delta.json", `/blog/${slug}`],
            ],
            started,
          ),
        );
        await waitForIdleBuilder(logStart);
      }
      return { posts, firstBuildSeconds: site.readyMs / 1000, seconds: seconds.sort((a, b) => a - b), load };
    } finally {
      await stopLocalSite(site);
    }
  } finally {
    await rm(stateDir, { recursive: true, force: true });
    await onAdmin(adminUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  }
}

if (import.meta.main) {
  const [adminUrl = "postgres://postgres@127.0.0.1:5432/postgres", posts = "10000", runs = "3", name] = process.argv.slice(2);
  const siteUrl = `http://localhost:${process.env.BENCH_PORT ?? "8890"}`;
  const figures = await measurePublishLiveAtScale(adminUrl, siteUrl, Number(posts), Number(runs), name);
  console.log(
    `${posts} posts: first build ${figures.firstBuildSeconds.toFixed(1)} s; publish → live ${figures.seconds.map((s) => s.toFixed(2)).join(", ")} s (load ${figures.load.map((l) => l.toFixed(1)).join(", ")})`,
  );
}
