import { spawn } from "node:child_process";
import { lstat, mkdir, readdir, readlink, rename, rm, symlink } from "node:fs/promises";
import path from "node:path";
import { buildSearchIndex } from "../search-index.ts";

export interface SiteBuilderOptions {
  projectRoot: string;
  /** The folder the server publishes: a symlink swapped to each finished build. */
  publishDir: string;
  /** Where finished builds are kept (one folder each); the build runs in it. */
  buildsDir: string;
  /** Astro's cache for this site (its content store, optimized images): apart from any other server's. */
  cacheDir: string;
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
}

export interface BuildResult {
  ok: boolean;
  ms: number;
}

/**
 * Builds the static site into a fresh folder and swaps it in atomically (a symlink rename), so the
 * old site keeps serving during a build and stays when a build fails. Requests that arrive while a
 * build runs coalesce into one more build after it.
 */
export class SiteBuilder {
  #options: SiteBuilderOptions;
  #running: Promise<BuildResult> | undefined;
  #queued: Promise<BuildResult> | undefined;

  constructor(options: SiteBuilderOptions) {
    this.#options = options;
  }

  /** True when a previous build is in place and can be served at once. */
  async hasSite(): Promise<boolean> {
    try {
      await lstat(path.join(this.#options.publishDir, "index.html"));
      return true;
    } catch {
      return false;
    }
  }

  /** Asks for a build; resolves when a build that started after this call has finished. */
  request(): Promise<BuildResult> {
    if (!this.#running) {
      this.#running = this.#build().finally(() => {
        this.#running = undefined;
      });
      return this.#running;
    }
    this.#queued ??= this.#running.then(() => {
      this.#queued = undefined;
      return this.request();
    });
    return this.#queued;
  }

  async #build(): Promise<BuildResult> {
    const { buildsDir, projectRoot, log } = this.#options;
    const started = performance.now();
    await mkdir(buildsDir, { recursive: true });
    await linkPackages(projectRoot, buildsDir);
    const outDir = path.join(buildsDir, `build-${Date.now().toString(36)}`);
    const output = await runAstroBuild(projectRoot, outDir, this.#options).then((built) => (built.ok ? indexForSearch(outDir) : built));
    const ms = Math.round(performance.now() - started);
    if (!output.ok) {
      log(`Site build failed after ${String(ms)} ms; the previous site keeps serving.\n${output.tail}`);
      await rm(outDir, { recursive: true, force: true });
      return { ok: false, ms };
    }
    await this.#swapIn(outDir);
    log(`Site built in ${String(ms)} ms.`);
    return { ok: true, ms };
  }

  async #swapIn(outDir: string): Promise<void> {
    const { publishDir, buildsDir } = this.#options;
    const previous = await currentTarget(publishDir);
    const tempLink = `${publishDir}.next`;
    await rm(tempLink, { force: true });
    await symlink(outDir, tempLink, "dir");
    // A real folder (from a plain `astro build`) can't be replaced by rename: clear it first.
    if ((await currentTarget(publishDir)) === "directory") await rm(publishDir, { recursive: true, force: true });
    await rename(tempLink, publishDir);
    // The replaced build goes after a grace period, so responses streaming from it complete.
    if (previous && previous !== "directory" && path.dirname(previous) === buildsDir) {
      setTimeout(() => void rm(previous, { recursive: true, force: true }), 30_000).unref();
    }
  }

  /** Removes builds left behind by an earlier run that stopped mid-build (all but the live one). */
  async removeStaleBuilds(): Promise<void> {
    const { publishDir, buildsDir } = this.#options;
    const live = await currentTarget(publishDir);
    const names = await readdir(buildsDir).catch(() => []);
    for (const name of names) {
      if (name === "node_modules") continue;
      const dir = path.join(buildsDir, name);
      if (dir !== live) await rm(dir, { recursive: true, force: true });
    }
  }
}

/**
 * A build's server half (`.prerender/`) imports the project's packages from inside the builds
 * folder: when that folder lies outside the project (a `LOCAL_STATE_DIR` elsewhere, the browser
 * tests' temporary folders), Node finds them only through a `node_modules` link beside the builds.
 */
async function linkPackages(projectRoot: string, buildsDir: string): Promise<void> {
  const relative = path.relative(projectRoot, buildsDir);
  if (!relative.startsWith("..") && !path.isAbsolute(relative)) return;
  const link = path.join(buildsDir, "node_modules");
  if ((await lstat(link).catch(() => null)) !== null) return;
  await symlink(path.join(projectRoot, "node_modules"), link, "dir");
}

/** The search index of a finished build, before it is swapped in (as on Netlify, netlify/build.ts). */
async function indexForSearch(outDir: string): Promise<{ ok: boolean; tail: string }> {
  try {
    await buildSearchIndex(outDir);
    return { ok: true, tail: "" };
  } catch (error) {
    return { ok: false, tail: `Search index: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The build folder `publishDir` links to, `"directory"` for a plain folder, or undefined. */
async function currentTarget(publishDir: string): Promise<string | undefined> {
  try {
    const stat = await lstat(publishDir);
    if (stat.isSymbolicLink()) return path.resolve(path.dirname(publishDir), await readlink(publishDir));
    return stat.isDirectory() ? "directory" : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `astro build` into `outDir`, run from the builds folder. Astro writes a static build's server half
 * (`.prerender/`, removed when the pages are out) inside the output folder when that folder is under
 * the working directory, and under `<working directory>/.astro/` otherwise: run from the project,
 * two servers of one checkout (the browser tests run several) wrote and deleted each other's files.
 * Its cache (`cacheDir`, passed as ASTRO_CACHE_DIR to astro.config.mjs) is this site's too.
 */
function runAstroBuild(
  projectRoot: string,
  outDir: string,
  options: Pick<SiteBuilderOptions, "buildsDir" | "cacheDir" | "env">,
): Promise<{ ok: boolean; tail: string }> {
  return new Promise((resolve) => {
    const astro = path.join(projectRoot, "node_modules", "astro", "bin", "astro.mjs");
    const child = spawn(process.execPath, [astro, "build", "--silent", "--root", projectRoot], {
      cwd: options.buildsDir,
      env: { ...options.env, ASTRO_OUT_DIR: outDir, ASTRO_CACHE_DIR: options.cacheDir, ASTRO_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let tail = "";
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (error) => resolve({ ok: false, tail: error.message }));
    child.on("close", (code) => resolve({ ok: code === 0, tail }));
  });
}
