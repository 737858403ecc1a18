/**
 * Sequential latency of the API under a running `npm start`, one request at a time (no queueing):
 * the reads, and the writes of the load test (which need `RATE_LIMIT_MULTIPLIER` raised).
 *   node tests/bench/api-latency.ts [baseUrl] [requests]
 * Prints the median, p95 and p99 per route after a warm-up.
 */
import { loadTargets, type LoadTarget } from "./api-load.ts";

export interface LatencyRow {
  route: string;
  requests: number;
  medianMs: number;
  p95Ms: number;
  p99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const readsOnly: LoadTarget[] = [
  { name: "GET /api/health", path: "/api/health" },
  { name: "GET /api/site-settings", path: "/api/site-settings" },
];

export async function measureApiLatency(baseUrl: string, count = 500, targets?: LoadTarget[]): Promise<LatencyRow[]> {
  const origin = new URL(baseUrl).origin;
  const rows: LatencyRow[] = [];
  let sent = 0;
  const call = async (target: LoadTarget) => {
    const url = new URL(target.path, baseUrl);
    // A fresh address for every write, as in the load test.
    const body = target.body?.replace("[<id>]", `seq${String(Date.now())}-${String(sent++)}`);
    const response = await fetch(url, {
      method: target.method ?? "GET",
      ...(body && { body, headers: { origin, "content-type": "application/json" } }),
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${target.name} answered ${String(response.status)}`);
  };
  for (const target of targets ?? [...readsOnly, ...(await loadTargets(baseUrl))]) {
    for (let i = 0; i < 50; i++) await call(target);
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await call(target);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    rows.push({ route: target.name, requests: count, medianMs: percentile(times, 50), p95Ms: percentile(times, 95), p99Ms: percentile(times, 99) });
  }
  return rows;
}

if (import.meta.main) {
  for (const row of await measureApiLatency(process.argv[2] ?? "http://localhost:8888", Number(process.argv[3] ?? 500))) {
    console.log(
      `${row.route.padEnd(32)} n=${String(row.requests)}  median ${row.medianMs.toFixed(2)} ms  p95 ${row.p95Ms.toFixed(2)} ms  p99 ${row.p99Ms.toFixed(2)} ms`,
    );
  }
}
