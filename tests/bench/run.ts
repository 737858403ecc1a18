/**
 * `npm run bench`: starts a fresh `npm start` in a scratch folder and prints what it measures —
 * start-up (fresh and warm), page weight, API read latency and publish → live — then writes
 * tests/bench/results.json. Figures, not pass/fail: the machine is shared and noisy.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { measureApiLatency } from "./api-latency.ts";
import { measurePage } from "./page-weight.ts";
import { measurePublishLive } from "./publish-live.ts";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const port = Number(process.env.BENCH_PORT ?? 8890);
const siteUrl = `http://localhost:${String(port)}`;

async function startSite(stateDir: string): Promise<{ child: ChildProcess; readyMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ["netlify/local/start.ts"], {
    cwd: projectRoot,
    env: { ...process.env, PORT: String(port), LOCAL_STATE_DIR: stateDir },
    stdio: "ignore",
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error("npm start exited");
    if (await fetch(siteUrl).then((response) => response.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, readyMs: performance.now() - started };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

const stateDir = await mkdtemp(path.join(tmpdir(), "nf-bench-"));
try {
  const fresh = await startSite(stateDir);
  const fetchText = async (pagePath: string) => (await fetch(new URL(pagePath, siteUrl))).text();
  const pages = [];
  for (const pagePath of ["/", "/blog", "/blog/1", "/downloads"]) pages.push(await measurePage(fetchText, pagePath));
  const latency = await measureApiLatency(siteUrl, 500);
  const secrets = JSON.parse(await readFile(path.join(stateDir, ".netlify", "local-secrets.json"), "utf8")) as { ADMIN_PASSWORD: string };
  const publishLive = await measurePublishLive(siteUrl, secrets.ADMIN_PASSWORD, 3);
  await stop(fresh.child);
  const warm = await startSite(stateDir);
  await stop(warm.child);

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`start-up, first page served: fresh ${(fresh.readyMs / 1000).toFixed(1)} s, warm ${(warm.readyMs / 1000).toFixed(1)} s`);
  console.log("\npage weight (gzip)   HTML      CSS       JS total  JS before interaction");
  for (const page of pages) {
    console.log(`${page.path.padEnd(20)} ${kb(page.html).padEnd(9)} ${kb(page.css).padEnd(9)} ${kb(page.jsTotal).padEnd(9)} ${kb(page.jsBeforeInteraction)}`);
  }
  console.log("\nAPI, sequential reads");
  for (const row of latency) {
    console.log(`${row.route.padEnd(32)} median ${row.medianMs.toFixed(2)} ms  p95 ${row.p95Ms.toFixed(2)} ms  p99 ${row.p99Ms.toFixed(2)} ms`);
  }
  console.log(`\npublish → live: ${publishLive.map((s) => `${s.toFixed(2)} s`).join(", ")}`);
  const results = { date: new Date().toISOString(), startup: { freshMs: fresh.readyMs, warmMs: warm.readyMs }, pages, latency, publishLiveSeconds: publishLive };
  await writeFile(path.join(projectRoot, "tests", "bench", "results.json"), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  await rm(stateDir, { recursive: true, force: true });
}
