/**
 * Sequential read latency of the API under a running `npm start`:
 *   node tests/bench/api-latency.ts [baseUrl] [requests]
 * Prints the median and p95 per route after a warm-up. (The full `npm run bench` builds on this.)
 */
const baseUrl = process.argv[2] ?? "http://localhost:8888";
const count = Number(process.argv[3] ?? 500);
const routes = ["/api/health", "/api/site-settings"];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

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
  console.log(
    `${route.padEnd(22)} n=${String(count)}  median ${percentile(times, 50).toFixed(2)} ms  p95 ${percentile(times, 95).toFixed(2)} ms  p99 ${percentile(times, 99).toFixed(2)} ms`,
  );
}
export {};
