/**
 * Build scaling: seeds published posts into a scratch database and times the site build (the
 * production build's `astro build` after migrations) at each size; pages per second and the
 * build's peak memory.
 *   node tests/bench/build-scaling.ts [postgresAdminUrl] [sizes, e.g. 100,1000,5000]
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { seedPublishedPosts, withScratchDatabase } from "./bulk-seed.ts";
import { trackPeakMemory } from "./peak-memory.ts";

export interface BuildRow {
  posts: number;
  /** HTML pages written: one per post plus the site's other pages. */
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  peakMemoryBytes: number;
  /** Builds timed at this size; the row is the median one. */
  runs: number;
}

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; peak: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const memory = trackPeakMemory(child.pid ?? 0, 100, true);
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("close", (code) => void memory.stop().then((peak) => resolve({ code, peak, output })));
  });
}

async function countHtml(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((entry) => entry.endsWith(".html")).length;
}

/** Builds the site from `databaseUrl` into a temp folder and measures it. */
async function timeBuild(databaseUrl: string, posts: number): Promise<BuildRow> {
  const outDir = await mkdtemp(path.join(tmpdir(), "nf-bench-build-"));
  try {
    const env = {
      DATABASE_URL: databaseUrl,
      ASTRO_OUT_DIR: outDir,
      ASTRO_TELEMETRY_DISABLED: "1",
      SITE_URL: "https://example.com",
      ADMIN_PATH: "bench-admin",
    };
    const started = performance.now();
    const build = await runNode([path.join("node_modules", "astro", "bin", "astro.mjs"), "build", "--silent"], env);
    const seconds = (performance.now() - started) / 1000;
    if (build.code !== 0) throw new Error(`site build failed at ${String(posts)} posts:\n${build.output}`);
    const pages = await countHtml(outDir);
    return { posts, pages, seconds, pagesPerSecond: pages / seconds, peakMemoryBytes: build.peak, runs: 1 };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/**
 * Grows one scratch database through `sizes` (post counts, ascending) and builds at each, the
 * median of `runs` builds (the machine is shared: one build can be slowed by anything else).
 */
export function measureBuildScaling(postgresAdminUrl: string, sizes: number[], runs: (size: number) => number = () => 1): Promise<BuildRow[]> {
  return withScratchDatabase(postgresAdminUrl, async (databaseUrl) => {
    const migrate = await runNode(["netlify/database/migrate.ts"], { DATABASE_URL: databaseUrl });
    if (migrate.code !== 0) throw new Error(`migrations failed:\n${migrate.output}`);
    const rows: BuildRow[] = [];
    let seeded = 0;
    for (const size of sizes) {
      await seedPublishedPosts(databaseUrl, size - seeded);
      seeded = size;
      const builds: BuildRow[] = [];
      for (let run = 0; run < runs(size); run++) builds.push(await timeBuild(databaseUrl, size));
      builds.sort((a, b) => a.seconds - b.seconds);
      const median = builds[Math.floor(builds.length / 2)];
      if (median) rows.push({ ...median, runs: builds.length });
    }
    return rows;
  });
}

if (import.meta.main) {
  const [adminUrl = "postgres://postgres@127.0.0.1:5432/postgres", sizes = "100,1000,5000"] = process.argv.slice(2);
  for (const row of await measureBuildScaling(adminUrl, sizes.split(",").map(Number))) {
    console.log(
      `${String(row.posts)} posts: ${String(row.pages)} pages in ${row.seconds.toFixed(1)} s, ${row.pagesPerSecond.toFixed(0)} pages/s, peak ${(row.peakMemoryBytes / 2 ** 20).toFixed(0)} MiB`,
    );
  }
}
