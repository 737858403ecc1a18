/**
 * The full build at scale (issue 39 point 5): `npm run build` (`netlify/build.ts`: migrations, `astro
 * build`, the search index in shards) at each size, with the peak resident memory of its whole
 * process tree; then Astro's part alone and a bare Astro build of the same posts
 * (`tests/bench/bare-astro/`: one page a post, the list in pages of 12, no integrations), each
 * with its CPU time (user + system of the process and its children, from `/usr/bin/time`).
 *
 * The share images' cache is warm, as Netlify keeps it between builds (decision 0078): every card
 * is linked to one drawn card under its own key before the build, so the figure is a deploy's, not
 * a site's very first build, which draws each card once (row 3c of docs/performance.md).
 * `astro build` and the bare build take turns, three times each by default, and each figure is the median run.
 * Every build writes into a folder of its own, and all of them are deleted only when the bench ends (decision 0100):
 * on this machine's file system a build that follows the deletion of another's 12,000 pages spent seconds of kernel
 * time skipping their freed inodes. That needs about 3 GB free at 10,000 posts and 7 GB more at 30,000.
 *   node tests/bench/full-build-scale.ts [postgresAdminUrl] [sizes, e.g. 10000,30000] [runs]
 */
import { spawn } from "node:child_process";
import { link, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { apiUrls } from "../../src/api/api-urls.ts";
import { folderShareImageCache, readDisplayFont } from "../../src/adapters/share-image-cache.ts";
import { listPosts } from "../../src/core/posts/posts.service.ts";
import { ensureShareImage, shareImageKey } from "../../src/core/share-images/share-image.ts";
import { shareImageInput } from "../../src/lib/social-image.ts";
import { seedPublishedPosts, withScratchDatabase } from "./bulk-seed.ts";
import { trackPeakMemory } from "./peak-memory.ts";

export interface TimedRun {
  seconds: number;
  /** User + system CPU seconds of the process and its children. */
  cpuSeconds: number;
  /** The user part of `cpuSeconds`: the steady one (the system part swings with this VM's memory and file system). */
  userSeconds: number;
  peakMemoryBytes: number;
}

export interface FullBuildRow {
  posts: number;
  /** `netlify/build.ts` whole: migrations, `astro build`, the search index. */
  full: TimedRun & { searchIndexSeconds: number; searchShards: number };
  /** `astro build` alone on the same data: the run of median CPU time. */
  astro: TimedRun;
  /** The bare Astro build of the same posts: the run of median CPU time. */
  bare: TimedRun;
  /** Each run's CPU seconds, the two builds taking turns. */
  astroCpuRuns: number[];
  bareCpuRuns: number[];
  /** The 1-minute load average when the size's first build started. */
  load: number;
}

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const bareRoot = fileURLToPath(new URL("./bare-astro/", import.meta.url));
const astroBin = path.join(projectRoot, "node_modules", "astro", "bin", "astro.mjs");

/** Runs `node args` under `/usr/bin/time` in `cwd`, sampling its tree's memory; its output's tail on failure. */
function timedNode(args: string[], env: NodeJS.ProcessEnv, cwd = projectRoot): Promise<TimedRun & { output: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("/usr/bin/time", ["-f", "cpu %U %S", process.execPath, ...args], {
      cwd,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const memory = trackPeakMemory(child.pid ?? 0, 100);
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("close", (code) => {
      const seconds = (performance.now() - started) / 1000;
      void memory.stop().then((peakMemoryBytes) => {
        if (code !== 0) return reject(new Error(`node ${args.join(" ")} failed (${String(code)}):\n${output.slice(-4000)}`));
        const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(output);
        const userSeconds = Number(cpu?.[1] ?? 0);
        resolve({ seconds, cpuSeconds: userSeconds + Number(cpu?.[2] ?? 0), userSeconds, peakMemoryBytes, output });
      });
    });
  });
}

const strip = (run: TimedRun & { output: string }): TimedRun => ({
  seconds: run.seconds,
  cpuSeconds: run.cpuSeconds,
  userSeconds: run.userSeconds,
  peakMemoryBytes: run.peakMemoryBytes,
});

/** Every published post's share image in `cacheDir`, as a link to one card drawn once. */
export async function warmShareImages(databaseUrl: string, cacheDir: string): Promise<number> {
  const db = await connectDatabase(databaseUrl, { driver: "pg" });
  try {
    const posts = await listPosts({ db, urls: apiUrls }, { publishedOnly: true });
    const cache = folderShareImageCache(cacheDir);
    const first = posts[0];
    if (!first) return 0;
    const drawn = await ensureShareImage({ cache, displayFont: readDisplayFont, coverBytes: () => Promise.resolve(null) }, shareImageInput(first));
    let linked = 0;
    for (const post of posts) {
      const key = shareImageKey(shareImageInput(post));
      if (key === drawn.key) continue;
      await link(cache.file(drawn.key), cache.file(key)).then(
        () => linked++,
        (error: NodeJS.ErrnoException) => {
          if (error.code !== "EEXIST") throw error;
        },
      );
    }
    return linked;
  } finally {
    await db.close();
  }
}

/** The published posts as the bare build reads them. */
async function exportPosts(databaseUrl: string, file: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT slug, title, excerpt, category, content, to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "publishedAt"
         FROM posts WHERE published ORDER BY published_at DESC, id DESC`,
    );
    await writeFile(file, JSON.stringify(rows));
  } finally {
    await client.end();
  }
}

/** The run of median CPU time. */
function medianRun<T extends { cpuSeconds: number }>(runs: T[]): T {
  const sorted = [...runs].sort((a, b) => a.cpuSeconds - b.cpuSeconds);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!middle) throw new Error("no run to take the median of");
  return middle;
}

async function measureSize(databaseUrl: string, posts: number, work: string, runs: number): Promise<FullBuildRow> {
  const cacheDir = path.join(work, "cache");
  await mkdir(cacheDir, { recursive: true });
  await warmShareImages(databaseUrl, cacheDir);
  const siteEnv = { DATABASE_URL: databaseUrl, ASTRO_CACHE_DIR: cacheDir, SITE_URL: "https://example.com", ADMIN_PATH: "bench-admin" };
  const load = loadavg()[0] ?? 0;

  const fullOut = path.join(work, `full-${String(posts)}`);
  const full = await timedNode(["netlify/build.ts"], { ...siteEnv, ASTRO_OUT_DIR: fullOut });
  const searchMs = Number(/Search index: .* in (\d+) ms/.exec(full.output)?.[1] ?? 0);
  const shards = (await readdir(fullOut)).filter((entry) => entry === "pagefind" || entry.startsWith("pagefind-shard-")).length;

  const postsJson = path.join(work, "posts.json");
  await exportPosts(databaseUrl, postsJson);
  // The two builds take turns, `runs` times each, and each figure is its median: this machine's CPU time
  // for the same build swings by a quarter from one run to the next, the bare build's most (decision 0097).
  const astroRuns: TimedRun[] = [];
  const bareRuns: TimedRun[] = [];
  // No output is deleted before the bench ends (decision 0100): each build writes into a new folder.
  for (let run = 0; run < runs; run++) {
    const astroOut = path.join(work, `astro-${String(posts)}-${String(run)}`);
    astroRuns.push(strip(await timedNode([astroBin, "build", "--silent"], { ...siteEnv, ASTRO_OUT_DIR: astroOut })));
    const bareOut = path.join(work, `bare-${String(posts)}-${String(run)}`);
    const bare = await timedNode(
      [astroBin, "build", "--silent"],
      { BARE_POSTS_JSON: postsJson, ASTRO_OUT_DIR: bareOut, ASTRO_CACHE_DIR: path.join(work, "bare-cache") },
      bareRoot,
    );
    bareRuns.push(strip(bare));
  }

  return {
    posts,
    full: { ...strip(full), searchIndexSeconds: searchMs / 1000, searchShards: shards },
    astro: medianRun(astroRuns),
    bare: medianRun(bareRuns),
    astroCpuRuns: astroRuns.map((run) => run.cpuSeconds),
    bareCpuRuns: bareRuns.map((run) => run.cpuSeconds),
    load,
  };
}

/** Grows one scratch database through `sizes` (ascending) and measures the builds at each. */
export function measureFullBuildScale(postgresAdminUrl: string, sizes: number[], runs = 3): Promise<FullBuildRow[]> {
  return withScratchDatabase(postgresAdminUrl, async (databaseUrl) => {
    const work = await mkdtemp(path.join(tmpdir(), "nf-bench-full-build-"));
    try {
      const rows: FullBuildRow[] = [];
      let seeded = 0;
      for (const size of sizes) {
        // The first full build applies the migrations itself, as a deploy does.
        if (seeded === 0) await timedNode(["netlify/database/migrate.ts"], { DATABASE_URL: databaseUrl });
        await seedPublishedPosts(databaseUrl, size - seeded);
        seeded = size;
        rows.push(await measureSize(databaseUrl, size, work, runs));
      }
      return rows;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const seconds = (runs: number[]) => runs.map((run) => run.toFixed(0)).join(", ");

/** One line a size, as the report and the command line print it. */
export function describeFullBuild(row: FullBuildRow): string {
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : "–");
  return (
    `${String(row.posts)} posts (load ${row.load.toFixed(1)}): full build ${row.full.seconds.toFixed(0)} s, peak ${mib(row.full.peakMemoryBytes)}` +
    ` (search index ${row.full.searchIndexSeconds.toFixed(0)} s in ${String(row.full.searchShards)} shard(s)); astro build ${row.astro.seconds.toFixed(0)} s,` +
    ` ${row.astro.cpuSeconds.toFixed(0)} s CPU (median of ${seconds(row.astroCpuRuns)}), peak ${mib(row.astro.peakMemoryBytes)}; bare Astro ${row.bare.seconds.toFixed(0)} s,` +
    ` ${row.bare.cpuSeconds.toFixed(0)} s CPU (median of ${seconds(row.bareCpuRuns)}), peak ${mib(row.bare.peakMemoryBytes)};` +
    ` Astro ÷ bare ${ratio(row.astro.cpuSeconds, row.bare.cpuSeconds)}× CPU (user alone ${ratio(row.astro.userSeconds, row.bare.userSeconds)}×),` +
    ` ${ratio(row.astro.seconds, row.bare.seconds)}× wall`
  );
}

if (import.meta.main) {
  const [adminUrl = "postgres://postgres@127.0.0.1:5432/postgres", sizes = "10000,30000", runs = "3"] = process.argv.slice(2);
  for (const row of await measureFullBuildScale(adminUrl, sizes.split(",").map(Number), Number(runs))) console.log(describeFullBuild(row));
}
