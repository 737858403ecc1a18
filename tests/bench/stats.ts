/**
 * The stats (issue 29) against a running `npm start`: the beacon's bytes as a browser gets them,
 * ingest of `POST /api/events` under load (autocannon, 64 connections, as sendBeacon sends it), then
 * `GET /api/stats` over 90 days with 1,000,000 page views stored (seeded straight into the
 * database as raw views of the 90 days before today, rolled up by the first call, which is timed
 * apart). Needs RATE_LIMIT_MULTIPLIER raised on the server: every beacon comes from one address.
 *   node tests/bench/stats.ts [siteUrl] [databaseUrl] [adminPassword] [seconds]
 */
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import pg from "pg";
import { adminCookie } from "./admin-session.ts";
import { loadFigures } from "./api-load.ts";

export interface StatsFigures {
  /** The beacon's own script and the shared API-paths chunk it imports, gzip bytes. */
  beaconBytes: number;
  ingest: { requestsPerSecond: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number };
  seededEvents: number;
  seedSeconds: number;
  /** The first Stats call after seeding, which rolls the 90 days up (once). */
  rollupSeconds: number;
  statsCalls: number;
  statsP50Ms: number;
  statsP95Ms: number;
}

const desktop = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const seeded = 1_000_000;

/** The scripts the blog list (an island-free page) loads: the beacon and what it imports. */
async function beaconBytes(siteUrl: string): Promise<number> {
  const html = await (await fetch(new URL("/blog", siteUrl))).text();
  const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((match) => match[1] ?? "");
  let bytes = 0;
  const seen = new Set<string>();
  const queue = [...scripts];
  while (queue.length > 0) {
    const script = queue.shift() ?? "";
    if (seen.has(script)) continue;
    seen.add(script);
    const code = await (await fetch(new URL(script, siteUrl))).text();
    bytes += gzipSync(code).byteLength;
    for (const match of code.matchAll(/from"\.\/([^"]+\.js)"/g)) queue.push(new URL(match[1] ?? "", new URL(script, siteUrl)).pathname);
  }
  return bytes;
}

async function ingest(siteUrl: string, seconds: number) {
  const origin = new URL(siteUrl).origin;
  const options = {
    url: new URL("/api/events", siteUrl).href,
    connections: 64,
    method: "POST" as const,
    headers: { origin, "content-type": "text/plain;charset=UTF-8", "user-agent": desktop },
    body: JSON.stringify({ url: `${origin}/blog/bench-[<id>]`, referrer: "https://news.example/item" }),
    idReplacement: true,
  };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: seconds });
  return loadFigures(result);
}

/** 1,000,000 raw page views over the 90 days before today: ~4,000 visitors a day, 60 pages, 12 sources, 3 devices, 20 countries. */
async function seedHistory(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO stats_events (day, at, visitor, path, source, utm_medium, utm_campaign, device, country)
       SELECT d, d + (g % 86400) * interval '1 second', 'bench-' || (g % 4000) || '-' || d,
              '/blog/bench-' || ((g * 7) % 60),
              CASE WHEN g % 3 = 0 THEN (ARRAY['google.com','news.ycombinator.com','reddit.com','linkedin.com','x.com','newsletter',
                   'bing.com','duckduckgo.com','facebook.com','github.com','producthunt.com','substack.com'])[1 + (g / 4000) % 12] ELSE '' END,
              '', '',
              (ARRAY['desktop','phone','tablet'])[1 + (g % 4000) % 3],
              (ARRAY['US','GB','DE','FR','IN','CA','AU','NL','ES','IT','BR','SE','PL','JP','IE','CH','PT','BE','AT','DK'])[1 + (g % 4000) % 20]
         FROM generate_series(0, $1::int - 1) AS g, LATERAL (SELECT (current_date - 1 - (g % 90))::date AS d) AS day`,
      [seeded],
    );
  } finally {
    await client.end();
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function measureStats(siteUrl: string, databaseUrl: string, password: string, seconds = 10): Promise<StatsFigures> {
  const bytes = await beaconBytes(siteUrl);
  const load = await ingest(siteUrl, seconds);
  const seedStarted = performance.now();
  await seedHistory(databaseUrl);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const cookie = await adminCookie(siteUrl, password);
  const today = new Date();
  const from = new Date(today.getTime() - 89 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  const statsUrl = new URL(`/api/stats?from=${from}&to=${today.toISOString().slice(0, 10)}`, siteUrl);
  const call = async () => {
    const started = performance.now();
    const response = await fetch(statsUrl, { headers: { cookie } });
    if (!response.ok) throw new Error(`GET /api/stats answered ${String(response.status)}`);
    await response.arrayBuffer();
    return performance.now() - started;
  };
  const rollupSeconds = (await call()) / 1000;
  const times: number[] = [];
  for (let run = 0; run < 200; run++) times.push(await call());
  times.sort((a, b) => a - b);
  return {
    beaconBytes: bytes,
    ingest: load,
    seededEvents: seeded,
    seedSeconds,
    rollupSeconds,
    statsCalls: times.length,
    statsP50Ms: percentile(times, 50),
    statsP95Ms: percentile(times, 95),
  };
}

export function printStats(figures: StatsFigures): void {
  const ok = (pass: boolean) => (pass ? "ok" : "MISSED");
  console.log("\n11. Stats (issue 29): beacon ≤ 1 KB gzip, ingest ≥ 1,000 events/s under npm start, GET /api/stats p95 ≤ 200 ms at 1,000,000 events");
  console.log(`beacon: ${String(figures.beaconBytes)} B gzip — ${ok(figures.beaconBytes <= 1024)}`);
  const { ingest: load } = figures;
  console.log(
    `POST /api/events: ${load.requestsPerSecond.toFixed(0)} events/s, p50 ${String(load.p50Ms)} ms, p99 ${String(load.p99Ms)} ms, non-2xx ${String(load.non2xx)}, errors ${String(load.errors)} — ${ok(load.requestsPerSecond >= 1000 && load.non2xx === 0)}`,
  );
  console.log(
    `GET /api/stats (90 days, ${figures.seededEvents.toLocaleString("en-US")} events seeded in ${figures.seedSeconds.toFixed(1)} s; first call rolls them up: ${figures.rollupSeconds.toFixed(1)} s): p50 ${figures.statsP50Ms.toFixed(1)} ms, p95 ${figures.statsP95Ms.toFixed(1)} ms over ${String(figures.statsCalls)} calls — ${ok(figures.statsP95Ms <= 200)}`,
  );
}

if (import.meta.main) {
  const [siteUrl = "http://localhost:8888", databaseUrl = "", password = "", seconds = "10"] = process.argv.slice(2);
  const figures = await measureStats(siteUrl, databaseUrl, password, Number(seconds));
  printStats(figures);
  console.log(JSON.stringify(figures));
}
