/**
 * The dashboard's calls at 1,000,000 subscribers (issue 39), on PostgreSQL: a list seeded by SQL
 * (`seedList`), then a fresh `npm start` on it, and each call timed one request at a time (no
 * queueing: the time a person waits) beside the bare `node:http` server timed the same way, in the
 * same run. Then the CSV export of every row, with the server's memory.
 *   node tests/bench/dashboard-scale.ts <databaseUrl> [subscribers]
 * With a database already seeded (its `subscribers` not empty) the seed is skipped, so a database
 * seeded once can be measured before and after a change.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { adminCookie } from "./admin-session.ts";
import { startHelloServer } from "./api-load.ts";
import { seedList, type SeededList } from "./bulk-seed.ts";
import { measureCsvExport, type CsvExportFigures } from "./csv-export.ts";
import { readAdminPassword, startLocalSite, stopLocalSite } from "./local-site.ts";

export interface DashboardCallRow {
  name: string;
  requests: number;
  p50Ms: number;
  p95Ms: number;
}

export interface DashboardFigures {
  subscribers: number;
  seeded: SeededList | null;
  /** One-minute load average before the calls and after the export (the machine is shared). */
  load: [number, number];
  calls: DashboardCallRow[];
  csv: CsvExportFigures;
}

const log = (message: string) => console.log(`[dashboard ${new Date().toISOString().slice(11, 19)}] ${message}`);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** A slow call stops after this long once it has 20 answers (the figures before a fix took seconds each). */
const budgetMs = 20_000;

/** Times up to `requests` sequential GETs of `url` after a warm-up; each answer must be 2xx and is read whole. */
async function time(name: string, url: string, headers: Record<string, string>, requests: number): Promise<DashboardCallRow> {
  const call = async () => {
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${name} answered ${String(response.status)}`);
  };
  for (let i = 0; i < 3; i++) await call();
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < requests && (i < 20 || performance.now() - started < budgetMs); i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const row = { name, requests: times.length, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95) };
  log(`${name.padEnd(36)} p50 ${row.p50Ms.toFixed(1).padStart(7)} ms  p95 ${row.p95Ms.toFixed(1).padStart(7)} ms  (${String(row.requests)} calls)`);
  return row;
}

/** The `after` cursor of the row `depth` rows down the newest-first list (`where` filters it), read once from the database. */
async function cursorAt(databaseUrl: string, depth: number, where = "true"): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ cursor: string }>(
      `SELECT (extract(epoch FROM subscribed_at) * 1000000)::bigint || '_' || id AS cursor
         FROM subscribers WHERE ${where} ORDER BY subscribed_at DESC, id DESC OFFSET $1 LIMIT 1`,
      [depth],
    );
    return rows[0]?.cursor ?? "";
  } finally {
    await client.end();
  }
}

async function countRows(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM subscribers")).rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/** The calls the dashboard makes, the list far down by the `after` cursor its `Link: rel="next"` header carries. */
async function dashboardCalls(databaseUrl: string, subscribers: number): Promise<{ name: string; path: string }[]> {
  const deep = Math.floor(subscribers * 0.95);
  return [
    { name: "subscriber list, first page", path: "/api/newsletter/subscribers?limit=100" },
    // What the list did before issue 39 (OFFSET walks every row above the page), kept for comparison.
    { name: "list at 95 % by ?page= (OFFSET)", path: `/api/newsletter/subscribers?limit=100&page=${String(deep / 100)}` },
    { name: "subscriber list at 95 %", path: `/api/newsletter/subscribers?limit=100&after=${await cursorAt(databaseUrl, deep)}` },
    {
      name: "… unsubscribed only, at 95 %",
      path: `/api/newsletter/subscribers?limit=100&status=unsubscribed&after=${await cursorAt(databaseUrl, Math.floor(subscribers * 0.04 * 0.95), "status = 'unsubscribed'")}`,
    },
    { name: "subscriber counts", path: "/api/newsletter/subscribers/counts" },
    { name: "list health", path: "/api/newsletter/list-health" },
    { name: "sends list", path: "/api/newsletter/sends" },
    { name: "stats, 30 days", path: "/api/stats" },
  ];
}

export async function measureDashboardAtScale(databaseUrl: string, siteUrl: string, size = 1_000_000, requests = 60): Promise<DashboardFigures> {
  const stateDir = await mkdtemp(path.join(tmpdir(), "nf-bench-scale-"));
  // The server migrates the database as it starts; a seed then goes in under it, as an import would.
  const site = await startLocalSite(siteUrl, stateDir, { DATABASE_URL: databaseUrl });
  try {
    const seeded = (await countRows(databaseUrl)) === 0 ? await seedList(databaseUrl, size) : null;
    if (seeded) log(`seeded ${String(seeded.subscribers)} subscribers in ${seeded.subscribersSeconds.toFixed(1)} s`);
    const subscribers = await countRows(databaseUrl);
    const cookie = await adminCookie(siteUrl, await readAdminPassword(stateDir));
    const loadBefore = (await import("node:os")).loadavg()[0] ?? 0;
    const hello = await startHelloServer();
    const calls: DashboardCallRow[] = [];
    try {
      calls.push(await time("node:http hello (anchor)", hello.url, {}, requests));
    } finally {
      hello.stop();
    }
    for (const call of await dashboardCalls(databaseUrl, subscribers)) {
      calls.push(await time(call.name, new URL(call.path, siteUrl).href, { cookie }, requests));
    }
    log(`CSV export of ${String(subscribers)} rows…`);
    const csv = await measureCsvExport(siteUrl, await readAdminPassword(stateDir), site.child.pid ?? 0);
    const loadAfter = (await import("node:os")).loadavg()[0] ?? 0;
    return { subscribers, seeded, load: [loadBefore, loadAfter], calls, csv };
  } finally {
    await stopLocalSite(site);
    await rm(stateDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const [databaseUrl, size] = process.argv.slice(2);
  if (!databaseUrl) throw new Error("usage: node tests/bench/dashboard-scale.ts <databaseUrl> [subscribers]");
  const figures = await measureDashboardAtScale(databaseUrl, `http://localhost:${process.env.BENCH_PORT ?? "8890"}`, Number(size ?? 1_000_000));
  console.log(JSON.stringify({ ...figures, calls: undefined }, null, 1));
}
