/**
 * Sequential read latency of the API under a running `npm start`:
 *   node tests/bench/api-latency.ts [baseUrl] [requests]
 * Prints the median, p95 and p99 per route after a warm-up.
 */
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

export async function measureApiLatency(
  baseUrl: string,
  count = 500,
  routes = ["/api/health", "/api/site-settings", "/api/blog-posts?published=true", "/api/downloads"],
): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  for (const route of routes) {
    const url = new URL(route, baseUrl);
    for (let i = 0; i < 50; i++) await (await fetch(url)).arrayBuffer();
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = await fetch(url);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${route} answered ${String(response.status)}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    rows.push({ route, requests: count, medianMs: percentile(times, 50), p95Ms: percentile(times, 95), p99Ms: percentile(times, 99) });
  }
  return rows;
}

if (import.meta.main) {
  for (const row of await measureApiLatency(process.argv[2] ?? "http://localhost:8888", Number(process.argv[3] ?? 500))) {
    console.log(`${row.route.padEnd(32)} n=${String(row.requests)}  median ${row.medianMs.toFixed(2)} ms  p95 ${row.p95Ms.toFixed(2)} ms  p99 ${row.p99Ms.toFixed(2)} ms`);
  }
}
