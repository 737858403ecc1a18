/**
 * `npm run bench`: starts a fresh `npm start` in a scratch folder and measures what our targets name
 * (docs/decisions/0004-performance-targets-and-benchmark.md) —
 * page weight, Lighthouse, the API under load, the CSV export, publish → live at 1,000 posts and
 * start-up (fresh and warm), a newsletter send to 10,000 recipients (and one killed half-way), signups
 * with a slow SMTP server and the outbox after an outage — then build scaling against a scratch PostgreSQL database and, there too,
 * the sizes of issue 39 (the dashboard at 1,000,000 subscribers, a send's start to them, 100,000 provider events). Prints a
 * table and writes tests/bench/results.json. Figures, not pass/fail: the machine is shared and
 * noisy, so compare ratios taken in the same run.
 *
 * Environment: BENCH_PORT (8890), BENCH_HELLO_PORT (8891), BENCH_LOAD_SECONDS (10),
 * BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres; build scaling is skipped
 * without a server there), PLAYWRIGHT_CHROMIUM_PATH (Lighthouse drives the browser tests' Chromium;
 * skipped without one).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { measureApiLatency } from "./api-latency.ts";
import { measureApiLoad } from "./api-load.ts";
import { measureBuildScaling } from "./build-scaling.ts";
import { measureFullBuildScale } from "./full-build-scale.ts";
import { canConnect, dropDatabases, seedDrafts, seedPublishedPosts, seedSubscribers, withScratchDatabase } from "./bulk-seed.ts";
import { measureCsvExport } from "./csv-export.ts";
import { measureDashboardAtScale } from "./dashboard-scale.ts";
import { measureSendEvents } from "./send-events.ts";
import { measureSendPrepare } from "./send-prepare.ts";
import { measureSegments } from "./segments.ts";
import { measureLighthouse, postWithCover } from "./lighthouse.ts";
import { measureListPage } from "./list-page-size.ts";
import { readLocalServerInfo } from "../support/local-server-info.ts";
import { readAdminPassword, serverLogPath, startLocalSite, stopLocalSite, type LocalSite } from "./local-site.ts";
import { machineDescription, printReport, type BenchResults } from "./report.ts";
import { measureNewsletterSend } from "./newsletter-send.ts";
import { measureSignupsWithSlowSmtp } from "./signups-slow-smtp.ts";
import { measurePage } from "./page-weight.ts";
import { publishPhotoPost } from "./photo-post.ts";
import { measureSearch } from "./search.ts";
import { measurePublishLive, waitForPage } from "./publish-live.ts";
import { measurePublishLiveAtScale } from "./publish-live-scale.ts";
import { chromiumPath, MissingChromiumError } from "../support/chromium-path.ts";
import { measureMovingInChild } from "./moving-child.ts";
import { measureStats } from "./stats.ts";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const siteUrl = `http://localhost:${process.env.BENCH_PORT ?? "8890"}`;
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const loadSeconds = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
/** The public pages measured; a post with a cover at its own address, read from the API once the site is up. */
const publicPages = ["/", "/blog", "post", "/downloads"];
/** The blog's list pages measured again once 1,000 posts are published. */
const listPagesAt1000 = ["/blog", "/blog/page/2", "/blog/category/cash-flow"];
const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

const results: BenchResults = { date: new Date().toISOString(), machine: machineDescription(), skipped: {} };
const benchStarted = performance.now();
const stateDir = await mkdtemp(path.join(tmpdir(), "nf-bench-"));
const running: LocalSite[] = [];
try {
  log("npm start, fresh state folder…");
  // Every load-test request comes from this one address: raise the per-client write limits.
  const siteEnv = { RATE_LIMIT_MULTIPLIER: "1000000" };
  const fresh = await startLocalSite(siteUrl, stateDir, siteEnv);
  running.push(fresh);
  const info = await readLocalServerInfo(stateDir);
  const password = await readAdminPassword(stateDir);

  log("page weight…");
  const fetchText = async (pagePath: string) => (await fetch(new URL(pagePath, siteUrl))).text();
  publicPages.splice(publicPages.indexOf("post"), 1, await postWithCover(siteUrl));
  results.pages = [];
  for (const pagePath of publicPages) results.pages.push(await measurePage(fetchText, pagePath));

  const chrome = chromiumOrWhyNot();
  if ("path" in chrome) {
    log("a post with a 12 MP phone photo…");
    const photoPost = await publishPhotoPost(siteUrl, password);
    log("Lighthouse…");
    results.lighthouse = await measureLighthouse(siteUrl, [...publicPages, photoPost.path], chrome.path);
  } else results.skipped.lighthouse = chrome.whyNot;

  // The API first, as on PostgreSQL below: measured on the site as visitors meet it, before the
  // export's 100,000 subscribers grow the server's heap.
  log("API, sequential reads…");
  results.latency = await measureApiLatency(siteUrl, 300);
  log(`API under load, ${String(loadSeconds)} s a route…`);
  results.load = await measureApiLoad(siteUrl, loadSeconds);

  log("CSV export of 10,000 then 100,000 subscribers…");
  // Two sizes: with a streamed export the server's memory peak stays the same at ten times the rows.
  results.csvExport = [];
  for (const [from, to] of [
    [0, 10_000],
    [10_000, 100_000],
  ] as const) {
    await seedSubscribers(info.databaseUrl, to - from, from); // the demo content has none
    results.csvExport.push(await measureCsvExport(siteUrl, password, fresh.child.pid ?? 0));
  }

  log("publish → live at 1,000 posts (seeding and rebuilding first)…");
  const lastPost = await seedPublishedPosts(info.databaseUrl, 1000);
  const drafts = await seedDrafts(info.databaseUrl, 3);
  await fetch(info.buildHookUrl, { method: "POST" });
  await waitForPage(siteUrl, `/blog/${String(lastPost)}`, "Bench post");
  results.publishLiveSeconds = await measurePublishLive(siteUrl, password, drafts);
  log("the blog's list pages at 1,000 posts…");
  results.pagesAt1000Posts = [];
  for (const pagePath of listPagesAt1000) results.pagesAt1000Posts.push(await measureListPage(fetchText, pagePath));
  if ("path" in chrome) results.lighthouseAt1000Posts = await measureLighthouse(siteUrl, listPagesAt1000, chrome.path);
  if ("path" in chrome) {
    log("search at 1,000 posts…");
    // The local server publishes LOCAL_STATE_DIR/dist (a link to the live build).
    results.searchAt1000Posts = await measureSearch(siteUrl, path.join(stateDir, "dist"), chrome.path);
  } else results.skipped.search = chrome.whyNot;

  log("stats: the beacon's bytes, ingest under load, then GET /api/stats with 1,000,000 page views stored…");
  results.stats = await measureStats(siteUrl, info.databaseUrl, password, loadSeconds);

  log("warm restart…");
  await stopLocalSite(fresh);
  const warm = await startLocalSite(siteUrl, stateDir, siteEnv);
  running.push(warm);
  await stopLocalSite(warm);
  results.startup = { freshMs: fresh.readyMs, warmMs: warm.readyMs };

  log("newsletter send to 10,000 recipients under a fresh npm start, then one killed half-way (waits out the 30-second local lease)…");
  results.newsletterSend = await measureNewsletterSend(siteUrl);

  log("signups with an SMTP server that takes 300 ms a message, then an outage and its recovery…");
  results.signupsSlowSmtp = await measureSignupsWithSlowSmtp(siteUrl, loadSeconds);

  log("moving in and out: a 5,000-post WXR import, a backup of 1,000 posts and 200 MB of files (a process of its own, for its memory)…");
  results.moving = await measureMovingInChild(postgresUrl);

  if (await canConnect(postgresUrl)) {
    log("build scaling (scratch database)…");
    results.builds = await measureBuildScaling(postgresUrl, [100, 1000, 5000, 10_000], (size) => (size <= 1000 ? 3 : 1));
    log("the full build at 10,000 and 30,000 posts: its peak memory, and Astro's part beside a bare Astro build of the same posts…");
    results.fullBuilds = await measureFullBuildScale(postgresUrl, [10_000, 30_000]);
    log("publish → live at 10,000 posts, npm start on PostgreSQL (a full first build, then three incremental publishes)…");
    results.publishLiveAt10k = await measurePublishLiveAtScale(postgresUrl, siteUrl, 10_000, 3);
    log("API under load and CSV export again, npm start on PostgreSQL instead of the embedded database…");
    const onPostgres = await withScratchDatabase(postgresUrl, async (databaseUrl) => {
      const pgStateDir = await mkdtemp(path.join(tmpdir(), "nf-bench-pg-"));
      const site = await startLocalSite(siteUrl, pgStateDir, { ...siteEnv, DATABASE_URL: databaseUrl });
      running.push(site);
      try {
        const load = await measureApiLoad(siteUrl, loadSeconds);
        // The export twice: the first run grows the heap once; a streamed export adds nothing after.
        await seedSubscribers(databaseUrl, 100_000);
        const pgPassword = await readAdminPassword(pgStateDir);
        const csv = [];
        for (let run = 0; run < 2; run++) csv.push(await measureCsvExport(siteUrl, pgPassword, site.child.pid ?? 0));
        return { load, csv };
      } finally {
        await stopLocalSite(site);
        await rm(pgStateDir, { recursive: true, force: true });
      }
    });
    results.loadOnPostgres = onPostgres.load;
    log("signups with the slow SMTP server again, npm start on PostgreSQL…");
    results.signupsSlowSmtpOnPostgres = await withScratchDatabase(postgresUrl, (databaseUrl) =>
      measureSignupsWithSlowSmtp(siteUrl, loadSeconds, { env: { DATABASE_URL: databaseUrl }, outage: false }),
    );
    results.csvExportOnPostgres = onPostgres.csv;
    log("the dashboard's calls at 1,000,000 subscribers (seeded by SQL into a scratch database), npm start on PostgreSQL…");
    results.dashboardAt1M = await withScratchDatabase(postgresUrl, (databaseUrl) => measureDashboardAtScale(databaseUrl, siteUrl));
    log("a send's start at 1,000,000 subscribers, then 100,000 provider events (scratch databases, the API in process)…");
    const scratch = `nf_bench_${String(process.pid)}`;
    try {
      results.sendPrepareAt1M = await measureSendPrepare(postgresUrl, 1_000_000, `${scratch}_prepare`);
      results.sendEventsAt100k = await measureSendEvents(postgresUrl, 100_000, 16, `${scratch}_events`);
      log(
        "audiences at 100,000 subscribers, 10 topics and 30 tags: the count of a 3-term segment, the preference page's POST, a send to the segment, each beside its anchor (scratch database)…",
      );
      results.segmentsAt100k = await measureSegments(postgresUrl, 100_000, `${scratch}_segments`);
    } finally {
      await dropDatabases(postgresUrl, [`${scratch}_prepare`, `${scratch}_events`, `${scratch}_segments`]);
    }
  } else {
    results.skipped.builds = `no PostgreSQL at ${postgresUrl} (set BENCH_POSTGRES_URL)`;
    results.skipped.onPostgres = `the API load and CSV export on PostgreSQL: ${results.skipped.builds}`;
  }
} catch (error) {
  console.error(`The benchmark stopped; the server's output is in ${serverLogPath}`);
  throw error;
} finally {
  // A failure mid-way must not leave a server holding the port.
  await Promise.all(running.map(stopLocalSite));
  await rm(stateDir, { recursive: true, force: true });
}
results.benchSeconds = (performance.now() - benchStarted) / 1000;
printReport(results);
await writeFile(path.join(projectRoot, "tests", "bench", "results.json"), `${JSON.stringify(results, null, 2)}\n`);

/** The browser tests' Chromium for Lighthouse, or why there is none (the figure is then skipped). */
function chromiumOrWhyNot(): { path: string } | { whyNot: string } {
  try {
    return { path: chromiumPath() };
  } catch (error) {
    if (error instanceof MissingChromiumError) return { whyNot: error.message };
    throw error;
  }
}
