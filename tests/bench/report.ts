import { printStats, type StatsFigures } from "./stats.ts";
/** The benchmark's results and the table `npm run bench` prints, each figure beside its target. */
import { cpus, release, totalmem } from "node:os";
import type { LatencyRow } from "./api-latency.ts";
import type { DashboardFigures } from "./dashboard-scale.ts";
import type { SendEventsFigures } from "./send-events.ts";
import type { SendPrepareFigures } from "./send-prepare.ts";
import type { SegmentFigures } from "./segments.ts";
import type { LoadRow } from "./api-load.ts";
import type { BuildRow } from "./build-scaling.ts";
import type { CsvExportFigures } from "./csv-export.ts";
import { describeCosts, type LighthouseRow } from "./lighthouse.ts";
import type { ListPageSize } from "./list-page-size.ts";
import type { NewsletterSendFigures } from "./newsletter-send.ts";
import type { PageWeight } from "./page-weight.ts";
import type { SignupLoadFigures, SlowSmtpFigures } from "./signups-slow-smtp.ts";
import type { SearchFigures } from "./search.ts";

import type { MovingFigures } from "./moving.ts";
import type { PublishLiveScaleFigures } from "./publish-live-scale.ts";
import { describeFullBuild, type FullBuildRow } from "./full-build-scale.ts";

export interface BenchResults {
  date: string;
  machine: string;
  pages?: PageWeight[];
  lighthouse?: LighthouseRow[];
  /** The blog's list pages once 1,000 posts are published (each list page still shows 12). */
  lighthouseAt1000Posts?: LighthouseRow[];
  /** Size of the same list pages at 1,000 posts. */
  pagesAt1000Posts?: ListPageSize[];
  latency?: LatencyRow[];
  load?: LoadRow[];
  /** The same load against `npm start` on PostgreSQL (DATABASE_URL) instead of the embedded database. */
  loadOnPostgres?: LoadRow[];
  csvExport?: CsvExportFigures[];
  /** The export twice more, `npm start` on PostgreSQL. */
  csvExportOnPostgres?: CsvExportFigures[];
  /** The dashboard's calls at 1,000,000 subscribers on PostgreSQL, beside the bare node:http server (issue 39). */
  dashboardAt1M?: DashboardFigures;
  /** A send's start at 1,000,000 subscribers on PostgreSQL (issue 39 point 1, tests/bench/send-prepare.ts). */
  sendPrepareAt1M?: SendPrepareFigures;
  /** Provider events for a send of 100,000 on PostgreSQL (issue 39 point 2, tests/bench/send-events.ts). */
  sendEventsAt100k?: SendEventsFigures;
  /** Audiences at 100,000 subscribers on PostgreSQL (issue 42 point 8, tests/bench/segments.ts). */
  segmentsAt100k?: SegmentFigures;
  publishLiveSeconds?: number[];
  /** Publish → live everywhere at 10,000 posts, npm start on PostgreSQL (issue 39 point 4, tests/bench/publish-live-scale.ts). */
  publishLiveAt10k?: PublishLiveScaleFigures;
  /** Site search at 1,000 posts: index build and size, a visitor's first search (tests/bench/search.ts). */
  searchAt1000Posts?: SearchFigures;
  startup?: { freshMs: number; warmMs: number };
  builds?: BuildRow[];
  /** The full build at 10,000 and 30,000 posts beside a bare Astro build (issue 39 point 5, tests/bench/full-build-scale.ts). */
  fullBuilds?: FullBuildRow[];
  /** 10,000 recipients sent under `npm start` into a counting SMTP sink, then again with a kill -9 half-way. */
  newsletterSend?: NewsletterSendFigures;
  /** Signups under `npm start` whose SMTP server answers 300 ms late, and the outbox's recovery after an outage. */
  signupsSlowSmtp?: SlowSmtpFigures;
  /** The same signup loads under `npm start` on PostgreSQL (no outage). */
  signupsSlowSmtpOnPostgres?: SlowSmtpFigures;
  /** Issue 32: a 5,000-post WXR import and a backup of 1,000 posts with 200 MB of files, each with its peak memory. */
  moving?: MovingFigures;
  /** The stats (issue 29): beacon bytes, ingest under load, the Stats call at 1,000,000 events. */
  stats?: StatsFigures;
  /** Figures not measured, with the reason. */
  skipped: Record<string, string>;
  benchSeconds?: number;
}

export function machineDescription(): string {
  return `${String(cpus().length)} × ${cpus()[0]?.model.trim() ?? "CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, Node ${process.versions.node}`;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const verdict = (met: boolean) => (met ? "met" : "MISSED");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function table(header: string[], rows: string[][]): void {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

function printPages(pages: PageWeight[]): void {
  console.log(
    "\n1. Page weight, gzipped (targets, docs/decisions/0018: every page ≤ 5 KB JS before interaction and ≤ 80 KB JS with its islands awake; the browser tests assert both as Chromium fetches them)",
  );
  table(
    ["page", "HTML", "CSS", "JS total", "JS before interaction", "total", "verdict"],
    pages.map((page) => {
      const total = page.html + page.css + page.jsTotal;
      const met = page.jsBeforeInteraction <= 5 * 1024 && page.jsTotal <= 80 * 1024;
      return [page.path, kb(page.html), kb(page.css), kb(page.jsTotal), kb(page.jsBeforeInteraction), kb(total), verdict(met)];
    }),
  );
}

function printLighthouse(
  rows: LighthouseRow[],
  title = "2. Lighthouse, mobile, simulated throttling (target 100 each; the run with the median performance of 3)",
): void {
  console.log(`\n${title}`);
  table(
    ["page", "perf", "perf of each run", "a11y", "best practices", "SEO", "LCP", "TBT", "CLS", "images", "what cost points"],
    rows.map((row) => [
      row.path,
      String(row.performance),
      row.performanceRuns.join(", "),
      String(row.accessibility),
      String(row.bestPractices),
      String(row.seo),
      `${((row.metrics["largest-contentful-paint"] ?? 0) / 1000).toFixed(2)} s`,
      `${(row.metrics["total-blocking-time"] ?? 0).toFixed(0)} ms`,
      (row.metrics["cumulative-layout-shift"] ?? 0).toFixed(3),
      `${(row.imageBytes / 1024).toFixed(0)} KB`,
      // Below 100: the metrics that moved, with the points each cost, then any other failing audit.
      [...(row.performance < 100 ? describeCosts(row.metricCosts) : []), ...row.failing].join(", "),
    ]),
  );
}

function printBuilds(rows: BuildRow[]): void {
  console.log("\n3. Build scaling, scratch PostgreSQL (target ≥ 200 pages/s at 1,000 posts)");
  table(
    ["posts", "pages", "build (median)", "pages/s", "peak memory", "builds"],
    rows.map((row) => [
      String(row.posts),
      String(row.pages),
      `${row.seconds.toFixed(1)} s`,
      row.pagesPerSecond.toFixed(0),
      mib(row.peakMemoryBytes),
      String(row.runs),
    ]),
  );
  const thousand = rows.find((row) => row.posts === 1000);
  const largest = rows.at(-1);
  if (thousand && largest && largest !== thousand) {
    const marginal = (largest.pages - thousand.pages) / (largest.seconds - thousand.seconds);
    console.log(
      `marginal rate ${String(thousand.posts)} → ${String(largest.posts)} posts: ${marginal.toFixed(0)} pages/s; at 1,000 posts: ${verdict(thousand.pagesPerSecond >= 200)}`,
    );
  }
}

function loadTable(load: LoadRow[]): void {
  table(
    ["route", "req/s", "p50", "p99", "of ceiling", "non-2xx", "errors", "verdict"],
    load.map((row) => {
      const limit = row.name.startsWith("POST") ? 50 : 20;
      const met = row.p99Ms <= limit && row.non2xx === 0 && row.errors === 0;
      return [
        row.name,
        row.requestsPerSecond.toFixed(0),
        `${String(row.p50Ms)} ms`,
        `${String(row.p99Ms)} ms`,
        `${(row.ofCeiling * 100).toFixed(1)} %`,
        String(row.non2xx),
        String(row.errors),
        row.name.includes("ceiling") ? "" : verdict(met),
      ];
    }),
  );
}

function printLoad(latency: LatencyRow[], load: LoadRow[], loadOnPostgres: LoadRow[] | undefined): void {
  console.log("\n5. API under load: autocannon, 64 connections, npm start (targets: p99 ≤ 20 ms reads, ≤ 50 ms writes)");
  loadTable(load);
  if (loadOnPostgres) {
    console.log("the same, npm start on PostgreSQL 15 (DATABASE_URL) instead of the embedded database:");
    loadTable(loadOnPostgres);
  }
  console.log("one connection at a time (no queueing):");
  for (const row of latency) console.log(`  ${row.route.padEnd(34)} median ${row.medianMs.toFixed(2)} ms, p99 ${row.p99Ms.toFixed(2)} ms`);
}

function csvTable(rows: CsvExportFigures[], database: string): void {
  table(
    ["rows", "database", "size", "time", "server memory before", "at peak", "growth", "verdict"],
    rows.map((csv) => [
      String(csv.rows),
      database,
      mib(csv.bytes),
      `${csv.seconds.toFixed(2)} s`,
      mib(csv.serverRssBeforeBytes),
      mib(csv.serverRssPeakBytes),
      mib(csv.serverRssPeakBytes - csv.serverRssBeforeBytes),
      csv.rows >= 100_000 ? verdict(csv.seconds <= 3) : "",
    ]),
  );
}

function printNewsletterSend(send: NewsletterSendFigures): void {
  const crash = send.crash;
  console.log(
    `\n8. Newsletter send under npm start, ${send.recipients.toLocaleString("en")} recipients into a local SMTP sink, SMTP_MAX_CONNECTIONS=${String(send.smtpConnections)} (targets: ≥ 500 messages/s, flat memory)`,
  );
  table(
    ["run", "wall time", "messages/s", "server RSS before", "peak", "growth", "received", "accounted for", "duplicates", "verdict"],
    [
      [
        "uninterrupted",
        `${send.seconds.toFixed(1)} s`,
        send.messagesPerSecond.toFixed(0),
        mib(send.serverRssBeforeBytes),
        mib(send.serverRssPeakBytes),
        mib(send.serverRssPeakBytes - send.serverRssBeforeBytes),
        String(send.received),
        "",
        "",
        verdict(send.messagesPerSecond >= 500),
      ],
      ...(crash
        ? [
            [
              `kill -9 at ${String(crash.sentAtKill)} sent, restart ${(crash.restartMs / 1000).toFixed(1)} s`,
              `${crash.seconds.toFixed(1)} s`,
              "",
              "",
              "",
              "",
              String(crash.received),
              `${String(crash.sent)} sent + ${String(crash.failed)} failed + ${String(crash.skipped)} skipped of ${String(crash.total)}, ${String(crash.pending)} pending`,
              String(crash.duplicates),
              verdict(crash.status === "sent" && crash.pending === 0 && crash.duplicates <= send.smtpConnections),
            ],
          ]
        : []),
    ],
  );
  const heap = send.liveHeapBytes;
  const [before = 0, atFirstTenth = 0] = heap;
  const growth = (heap.at(-1) ?? 0) - atFirstTenth;
  console.log(
    `Server live heap after a full collection (before the send, each tenth, done): ${heap.map((bytes) => (bytes / 2 ** 20).toFixed(1)).join(" · ")} MiB; from the first tenth to done ${(growth / 2 ** 20).toFixed(1)} MiB (${(growth / (send.recipients * 0.9)).toFixed(0)} bytes a recipient; the first tenth's ${((atFirstTenth - before) / 2 ** 20).toFixed(1)} MiB is the send's one-off set-up) — flat: ${verdict(growth <= flatHeapGrowthBytes)}`,
  );
}

/** Live heap growth over the last nine tenths of a send that still counts as flat: under 0.5 KB a recipient at 10,000. */
const flatHeapGrowthBytes = 4 * 2 ** 20;

export function printReport(results: BenchResults): void {
  console.log(`\nNo Filter benchmark, ${results.date}\n${results.machine}`);
  if (results.signupsSlowSmtp) printSlowSmtp(results.signupsSlowSmtp);
  if (results.signupsSlowSmtpOnPostgres) printSlowSmtp(results.signupsSlowSmtpOnPostgres, "npm start on PostgreSQL");
  if (results.moving) printMoving(results.moving);
  if (results.stats) printStats(results.stats);
  if (results.pages) printPages(results.pages);
  if (results.lighthouse) printLighthouse(results.lighthouse);
  if (results.pagesAt1000Posts) {
    console.log(
      "\n2b. The blog's list pages at 1,000 published posts (targets: ≤ 200 KB of HTML before compression, ≤ 1,500 elements, Lighthouse ≥ 98)",
    );
    table(
      ["page", "HTML", "HTML gzipped", "elements", "verdict"],
      results.pagesAt1000Posts.map((page) => [
        page.path,
        kb(page.htmlBytes),
        kb(page.htmlGzipped),
        String(page.elements),
        verdict(page.htmlBytes <= 200 * 1024 && page.elements <= 1500),
      ]),
    );
  }
  if (results.lighthouseAt1000Posts) printLighthouse(results.lighthouseAt1000Posts, "2c. Lighthouse on the list pages at 1,000 posts (target ≥ 98)");
  if (results.builds) printBuilds(results.builds);
  if (results.fullBuilds) {
    console.log(
      "\n3e. The full build (npm run build) at scale, share images cached (targets: ≤ 8 GB peak at 10,000 posts; Astro ≤ 1.5× a bare Astro build)",
    );
    for (const row of results.fullBuilds) {
      const met = row.astro.cpuSeconds <= 1.5 * row.bare.cpuSeconds && (row.posts > 10_000 || row.full.peakMemoryBytes <= 8 * 2 ** 30);
      console.log(`  ${describeFullBuild(row)} — ${verdict(met)}`);
    }
  }
  if (results.publishLiveAt10k) {
    const scale = results.publishLiveAt10k;
    const seconds = median(scale.seconds);
    console.log(
      `\n4b. Publish → live everywhere at ${String(scale.posts)} posts, npm start on PostgreSQL (target ≤ 5 s): median ${seconds.toFixed(1)} s of ${scale.seconds.map((s) => s.toFixed(1)).join(", ")} s (load ${scale.load.map((l) => l.toFixed(1)).join(", ")}; first full build ${scale.firstBuildSeconds.toFixed(0)} s) — ${verdict(seconds <= 5)}`,
    );
  }
  if (results.publishLiveSeconds) {
    const seconds = median(results.publishLiveSeconds);
    console.log(
      `\n4. Publish → live at 1,000 posts (target ≤ 10 s): median ${seconds.toFixed(1)} s of ${results.publishLiveSeconds.map((s) => s.toFixed(1)).join(", ")} s — ${verdict(seconds <= 10)}`,
    );
  }
  if (results.searchAt1000Posts) {
    const search = results.searchAt1000Posts;
    console.log(
      `\nSearch at 1,000 posts: ${String(search.records)} records indexed in ${(search.indexMs / 1000).toFixed(1)} s, index ${kb(search.indexBytes)} in ${String(search.indexFiles)} files; first search for “${search.query}”: ${kb(search.firstSearchBytes)} in ${String(search.firstSearchRequests)} requests, first results after ${String(search.msToFirstResults)} ms`,
    );
  }
  if (results.load && results.latency) printLoad(results.latency, results.load, results.loadOnPostgres);
  if (results.csvExport) {
    console.log("\n6. CSV export of the subscribers (target: 100,000 in ≤ 3 s, flat memory)");
    csvTable(results.csvExport, "embedded database");
    if (results.csvExportOnPostgres) csvTable(results.csvExportOnPostgres, "PostgreSQL");
  }
  if (results.dashboardAt1M) printDashboard(results.dashboardAt1M);
  if (results.sendPrepareAt1M) {
    const prepare = results.sendPrepareAt1M;
    console.log(
      `\nA send's start at ${String(prepare.subscribers)} subscribers (target ≤ 10 s): answered ${(prepare.answerMs / 1000).toFixed(1)} s (${prepare.answeredStatus}) — ${verdict(prepare.answerMs <= 10_000)}; the longest transaction ${prepare.longestTransactionMs.toFixed(0)} ms; queued after ${prepare.preparingSeconds.toFixed(1)} s; the old one statement ${prepare.oneStatementSeconds.toFixed(1)} s`,
    );
  }
  if (results.segmentsAt100k) {
    const segments = results.segmentsAt100k;
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      `\nAudiences at ${String(segments.subscribers)} subscribers, 10 topics, 30 tags (load average ${segments.loadAverage.join(" → ")}; each figure beside its anchor, measured in turn with it)`,
    );
    table(
      ["what", "median", "p95", "anchor median", "anchor p95", "target", "verdict"],
      [
        [
          `count "${segments.expression}" (${String(segments.count)}); anchor: everything (${String(segments.everythingCount)})`,
          ms(segments.countMedianMs),
          ms(segments.countP95Ms),
          ms(segments.everythingMedianMs),
          ms(segments.everythingP95Ms),
          "p95 ≤ 200 ms",
          verdict(segments.countP95Ms <= 200),
        ],
        [
          "the preference page's POST (303), one reader a run; anchor: their GET",
          ms(segments.preferencesMedianMs),
          ms(segments.preferencesP95Ms),
          ms(segments.preferencesReadMedianMs),
          ms(segments.preferencesReadP95Ms),
          "p95 ≤ 100 ms",
          verdict(segments.preferencesP95Ms <= 100),
        ],
        [
          `a send to the segment fixed (${String(segments.total)}); anchor: to everyone (${String(segments.everyoneTotal)})`,
          `${segments.sendFixedSeconds.toFixed(2)} s`,
          "",
          `${segments.everyoneFixedSeconds.toFixed(2)} s`,
          "",
          "≤ 5 s, total = count",
          verdict(segments.sendFixedSeconds <= 5 && segments.total === segments.count),
        ],
      ],
    );
    console.log(
      `The process's first send (${String(segments.firstSendTotal)} fixed, the email renderer warmed on the way): ${segments.firstSendFixedSeconds.toFixed(2)} s — ${verdict(segments.firstSendFixedSeconds <= 5)}`,
    );
  }
  if (results.sendEventsAt100k) {
    const events = results.sendEventsAt100k;
    console.log(
      `\nProvider events for a send of ${String(events.recipients)} (target ≥ 500/s; status ≤ 50 ms): ${events.eventsPerSecond.toFixed(0)}/s — ${verdict(events.eventsPerSecond >= 500)}; replays ${events.replaysPerSecond.toFixed(0)}/s; status median ${events.statusMedianMs.toFixed(1)} ms, worst ${events.statusWorstMs.toFixed(1)} ms — ${verdict(events.statusWorstMs <= 50)}; figures equal a recount: ${String(events.equalsRecount)}`,
    );
  }
  if (results.startup) {
    const { freshMs, warmMs } = results.startup;
    console.log(
      `\n7. Start-up, npm start to the first page served (target ≤ 30 s): fresh ${(freshMs / 1000).toFixed(1)} s — ${verdict(freshMs <= 30_000)}; warm restart ${(warmMs / 1000).toFixed(1)} s`,
    );
  }
  if (results.newsletterSend) printNewsletterSend(results.newsletterSend);
  for (const [figure, reason] of Object.entries(results.skipped)) console.log(`\nSKIPPED ${figure}: ${reason}`);
  if (results.benchSeconds) console.log(`\nbenchmark ran in ${(results.benchSeconds / 60).toFixed(1)} min`);
}

function printSlowSmtp(figures: SlowSmtpFigures, where = "npm start on the embedded database"): void {
  console.log(
    `\nSignups with an SMTP server that answers ${String(figures.smtpDelayMs)} ms late, ${where} (targets: ≥ 300 signups/s, p99 ≤ 100 ms; the answer does not wait for mail)`,
  );
  const row = (name: string, load: SignupLoadFigures, met: boolean) => [
    name,
    load.signupsPerSecond.toFixed(0),
    `${String(load.p50Ms)} ms`,
    `${String(load.p99Ms)} ms`,
    String(load.non2xx),
    String(load.errors),
    verdict(met),
  ];
  const clean = (load: SignupLoadFigures) => load.non2xx === 0 && load.errors === 0;
  const { saturated, offered } = figures;
  table(
    ["load", "signups/s", "p50", "p99", "non-2xx", "errors", "verdict"],
    [
      row("64 connections, as fast as answers come", saturated, saturated.signupsPerSecond >= 300 && clean(saturated)),
      row(
        `${String(offered.rate)} signups/s arriving`,
        offered,
        offered.signupsPerSecond >= 0.97 * offered.rate && offered.p99Ms <= 100 && clean(offered),
      ),
    ],
  );
  if (figures.outage)
    console.log(
      `Outage: ${String(figures.outage.queued)} confirmations queued while the SMTP server was down (outbox paused: ${figures.outage.pausedReason ?? "—"}); the last delivered ${figures.outage.recoveryToLastDeliveredSeconds.toFixed(1)} s after it came back.`,
    );
}

/** How much the process grew during a run, in MB. */
const grew = (run: { peakRssMb: number; startRssMb: number }) => Math.round((run.peakRssMb - run.startRssMb) * 10) / 10;
/** Flat memory: the process grows by less than a quarter of the archive it writes or reads (held whole, it would grow by all of it). */
const flat = (run: { peakRssMb: number; startRssMb: number }, archiveMb: number) => grew(run) < archiveMb / 4;

function printMoving(moving: MovingFigures): void {
  console.log(`\nMoving in and out (${moving.database})`);
  table(
    ["run", "size", "seconds", "peak RSS", "target"],
    [
      [
        `WXR import, ${String(moving.wxr.posts)} posts`,
        `${String(moving.wxr.megabytes)} MB`,
        String(moving.wxr.seconds),
        `${String(moving.wxr.peakRssMb)} MB`,
        `< 120 s, < 512 MB: ${verdict(moving.wxr.seconds < 120 && moving.wxr.peakRssMb < 512)}`,
      ],
      [
        `backup, ${String(moving.backup.posts)} posts + ${String(moving.backup.fileMegabytes)} MB files`,
        `${String(moving.backup.archiveMegabytes)} MB`,
        String(moving.backup.seconds),
        `${String(moving.backup.peakRssMb)} MB (+${String(grew(moving.backup))})`,
        `flat memory: ${verdict(flat(moving.backup, moving.backup.archiveMegabytes))}`,
      ],
      [
        `restore of that backup (replace)`,
        `${String(moving.restore.rows)} rows, ${String(moving.restore.files)} files`,
        String(moving.restore.seconds),
        `${String(moving.restore.peakRssMb)} MB (+${String(grew(moving.restore))})`,
        `flat memory: ${verdict(flat(moving.restore, moving.backup.archiveMegabytes))}`,
      ],
    ],
  );
}

function printDashboard(figures: DashboardFigures): void {
  console.log(
    `\nDashboard calls at ${String(figures.subscribers)} subscribers, PostgreSQL, one at a time (target p95 ≤ 200 ms; load average ${figures.load.map((load) => load.toFixed(1)).join(" → ")})`,
  );
  for (const row of figures.calls) {
    // The anchor and the OFFSET page (kept for comparison) have no target.
    const judged = !row.name.includes("anchor") && !row.name.includes("OFFSET");
    console.log(
      `  ${row.name.padEnd(36)} p50 ${row.p50Ms.toFixed(1).padStart(7)} ms  p95 ${row.p95Ms.toFixed(1).padStart(7)} ms${judged ? ` — ${verdict(row.p95Ms <= 200)}` : ""}`,
    );
  }
  const csv = figures.csv;
  console.log(
    `  CSV export: ${String(csv.rows)} rows in ${csv.seconds.toFixed(1)} s (target ≤ 15 s) — ${verdict(csv.seconds <= 15)}, server RSS ${(csv.serverRssBeforeBytes / 2 ** 20).toFixed(0)} → peak ${(csv.serverRssPeakBytes / 2 ** 20).toFixed(0)} MiB`,
  );
}
