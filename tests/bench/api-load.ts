/**
 * The API under load with autocannon (64 connections, 10 s a route) against a running
 * `npm start`, beside a bare `node:http` hello server measured in the same run as the ceiling
 * this machine allows. Writes need `RATE_LIMIT_MULTIPLIER` raised on the server: every request
 * comes from one address.
 *   node tests/bench/api-load.ts [siteUrl] [seconds]
 */
import { spawn } from "node:child_process";
import autocannon, { type Result } from "autocannon";

export interface LoadRow {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests per second as a share of the hello server's. */
  ofCeiling: number;
  /** Answers other than 2xx, and connection errors: a figure only counts when both are 0. */
  non2xx: number;
  errors: number;
}

export interface LoadTarget {
  name: string;
  path: string;
  method?: "GET" | "POST";
  /** A JSON body; `[<id>]` becomes a fresh random id in each request (distinct addresses). */
  body?: string;
}

const helloPort = Number(process.env.BENCH_HELLO_PORT ?? 8891);

/** The ceiling: Node's own HTTP server answering a constant, in its own process as the site is. */
export async function startHelloServer(): Promise<{ url: string; stop: () => void }> {
  const code = `require("node:http").createServer((q, s) => s.end("hello")).listen(${String(helloPort)}, () => console.log("up"))`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  return { url: `http://localhost:${String(helloPort)}/`, stop: () => child.kill() };
}

/** Unmeasured load before each measured run: the JIT and the first shared read are not steady state. */
const warmUpSeconds = 2;

async function load(url: string, seconds: number, target: Omit<LoadTarget, "name" | "path">, origin: string) {
  await run(url, warmUpSeconds, target, origin);
  return run(url, seconds, target, origin);
}

async function run(url: string, seconds: number, target: Omit<LoadTarget, "name" | "path">, origin: string) {
  const result = await autocannon({
    url,
    connections: 64,
    duration: seconds,
    method: target.method ?? "GET",
    headers: target.body ? { origin, "content-type": "application/json" } : {},
    ...(target.body && { body: target.body, idReplacement: true }),
  });
  return loadFigures(result);
}

/** What the bench reports of an autocannon run: answers a second, p50 and p99, and what went wrong. */
export function loadFigures(result: Result): { requestsPerSecond: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number } {
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** The routes the API targets name; the download request needs an existing resource's id. */
export async function loadTargets(siteUrl: string): Promise<LoadTarget[]> {
  const downloads = (await (await fetch(new URL("/api/downloads", siteUrl))).json()) as { id: number }[];
  const downloadId = downloads[0]?.id;
  if (downloadId === undefined) throw new Error("no resource to request: seed the demo content first");
  return [
    { name: "GET /api/blog-posts?published=true", path: "/api/blog-posts?published=true" },
    { name: "GET /api/downloads", path: "/api/downloads" },
    { name: "POST /api/newsletter/subscribe", path: "/api/newsletter/subscribe", method: "POST", body: '{"email":"r[<id>]@bench.example"}' },
    {
      name: `POST /api/downloads/{id}/request`,
      path: `/api/downloads/${String(downloadId)}/request`,
      method: "POST",
      body: '{"email":"d[<id>]@bench.example"}',
    },
  ];
}

export async function measureApiLoad(siteUrl: string, seconds = 10): Promise<LoadRow[]> {
  const origin = new URL(siteUrl).origin;
  const targets = await loadTargets(siteUrl);
  const hello = await startHelloServer();
  let ceiling;
  try {
    ceiling = await load(hello.url, seconds, {}, origin);
  } finally {
    hello.stop();
  }
  const rows: LoadRow[] = [{ name: "node:http hello (ceiling)", ...ceiling, ofCeiling: 1 }];
  for (const target of targets) {
    const figures = await load(new URL(target.path, siteUrl).href, seconds, target, origin);
    rows.push({ name: target.name, ...figures, ofCeiling: figures.requestsPerSecond / ceiling.requestsPerSecond });
  }
  return rows;
}

if (import.meta.main) {
  for (const row of await measureApiLoad(process.argv[2] ?? "http://localhost:8888", Number(process.argv[3] ?? 10))) {
    console.log(row);
  }
}
