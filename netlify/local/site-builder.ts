import { spawn } from "node:child_process";
import { lstat, mkdir, readdir, readlink, rename, rm, symlink } from "node:fs/promises";
import path from "node:path";
import { buildSearchIndex } from "../search-index.ts";
import { applyIncrementalBuild, type LiveSearch } from "../incremental-build.ts";
import { BuildProcess } from "./build-process.ts";

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
  /**
   * After an incremental build, the full build (which folds the search changes back into one index)
   * waits until the site has had no change for this long. Default 10 minutes.
   */
  fullBuildDelayMs?: number;
  /** How many changed pages of one list an incremental pass renders (the rest in the next pass). Default 2. */
  listPagesPerPass?: number;
  /**
   * Whether a full build runs in a process that stays to render its incremental passes (decision 0091).
   * Default true; false runs every build as a separate `astro build` (the builder's own tests, with a stand-in).
   */
  keepRenderer?: boolean;
}

/** A full build this process made and swapped in: incremental builds start from its page keys. */
interface LiveBuild {
  dir: string;
  keysDir: string;
  search: LiveSearch;
  /** The process that built it, keeping its renderer for the incremental passes (decision 0091). */
  renderer?: BuildProcess;
}

export interface BuildResult {
  ok: boolean;
  ms: number;
  /** An incremental pass: whether the full build's kept renderer made it (else a separate `astro build`). */
  kept?: boolean;
}

/**
 * Builds the static site into a fresh folder and swaps it in atomically (a symlink rename), so the
 * old site keeps serving during a build and stays when a build fails. Requests that arrive while a
 * build runs coalesce into one more build after it.
 *
 * A content change (`change()`, the build hook) is an incremental build once a full build of this
 * process is live: only the pages whose content changed are rendered and copied over the live site,
 * the changed posts indexed into a small search index merged at search time, and a full build follows
 * once the site is quiet (docs/decisions/0089-incremental-site-build.md). Each full build runs in a
 * process that stays and renders the incremental passes on it with the code it has loaded
 * (docs/decisions/0091-kept-renderer.md); a separate `astro build` when it cannot.
 */
export class SiteBuilder {
  #options: SiteBuilderOptions;
  #running: Promise<BuildResult> | undefined;
  #queued: Promise<BuildResult> | undefined;
  #live: LiveBuild | undefined;
  #incrementalRunning: Promise<BuildResult> | undefined;
  #incrementalQueued: Promise<BuildResult> | undefined;
  /** Counts change requests: a full build that saw a change arrive while it ran catches up before it goes live. */
  #changes = 0;
  #fullBuildTimer: NodeJS.Timeout | undefined;

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

  /**
   * Asks for the site to show a content change: an incremental build when a full build of this
   * process is live (resolves when the change is live), else a full build.
   */
  change(): Promise<BuildResult> {
    return this.#change(false);
  }

  /** `rest`: the pass after one that left shifted list pages, which renders all of them. */
  #change(rest: boolean): Promise<BuildResult> {
    this.#changes++;
    if (!this.#live) return this.request();
    if (!this.#incrementalRunning) {
      this.#incrementalRunning = this.#incremental(rest).finally(() => {
        this.#incrementalRunning = undefined;
      });
      return this.#incrementalRunning;
    }
    this.#incrementalQueued ??= this.#incrementalRunning.then(() => {
      this.#incrementalQueued = undefined;
      return this.#change(rest);
    });
    return this.#incrementalQueued;
  }

  /** Resolves once no incremental build is running or waiting (tests, the bench). */
  async settled(): Promise<void> {
    while (this.#incrementalRunning ?? this.#incrementalQueued) await (this.#incrementalQueued ?? this.#incrementalRunning);
  }

  /** Stops the pending full build's timer and the live build's process (the server is stopping). */
  stop(): void {
    clearTimeout(this.#fullBuildTimer);
    void this.#live?.renderer?.stop();
  }

  async #incremental(rest: boolean): Promise<BuildResult> {
    const live = this.#live;
    if (!live) return this.request();
    const { log } = this.#options;
    const started = performance.now();
    const output = await this.#applyChanges(live, rest ? undefined : (this.#options.listPagesPerPass ?? 2));
    const ms = Math.round(performance.now() - started);
    if (!output.ok) {
      log(`Incremental build failed after ${String(ms)} ms; a full build follows.\n${output.tail}`);
      return this.request();
    }
    log(
      `Site updated in ${String(ms)} ms (${String(output.pages)} pages rendered${output.kept ? "" : " by astro build"}, ${String(output.removed)} removed${output.deferred > 0 ? `, ${String(output.deferred)} list pages in the next pass` : ""}).`,
    );
    // Later pages of a list a post joined at its top shifted by one: rendered next, off the publish's path.
    if (output.deferred > 0) void this.#change(true);
    this.#scheduleFullBuild();
    return { ok: true, ms, kept: output.kept };
  }

  /** Renders what changed since `live`'s keys into a scratch folder and applies it to `live` in place. */
  async #applyChanges(
    live: LiveBuild,
    listPagesPerPass?: number,
  ): Promise<{ ok: boolean; tail: string; pages: number; removed: number; deferred: number; kept: boolean }> {
    const { buildsDir, projectRoot, log } = this.#options;
    const partialDir = path.join(buildsDir, `partial-${Date.now().toString(36)}`);
    const keysDir = `${partialDir}.keys`;
    const keys = {
      SITE_BUILD_KEYS: keysDir,
      SITE_BUILD_BASE_KEYS: live.keysDir,
      ...(listPagesPerPass !== undefined && { SITE_BUILD_LIST_PAGES: String(listPagesPerPass) }),
    };
    try {
      // The full build's process renders with what it has loaded; failing that, a separate `astro build`.
      let built = live.renderer
        ? await live.renderer.run("partial", projectRoot, { ...keys, ASTRO_OUT_DIR: partialDir })
        : { ok: false, unavailable: true, tail: "" };
      const kept = built.ok;
      if (!built.ok) {
        if (!built.unavailable) log(`The kept renderer failed; astro build renders the change instead.\n${built.tail}`);
        await rm(partialDir, { recursive: true, force: true });
        await rm(keysDir, { recursive: true, force: true });
        built = await runAstroBuild(projectRoot, partialDir, this.#options, keys);
      }
      if (!built.ok) return { ...built, pages: 0, removed: 0, deferred: 0, kept };
      const applied = await applyIncrementalBuild({
        liveDir: live.dir,
        liveKeysDir: live.keysDir,
        partialDir,
        partialKeysDir: keysDir,
        search: live.search,
      });
      return { ok: true, tail: "", ...applied, kept };
    } catch (error) {
      return {
        ok: false,
        tail: error instanceof Error ? (error.stack ?? error.message) : String(error),
        pages: 0,
        removed: 0,
        deferred: 0,
        kept: false,
      };
    } finally {
      await rm(partialDir, { recursive: true, force: true });
      await rm(keysDir, { recursive: true, force: true });
    }
  }

  #scheduleFullBuild(): void {
    clearTimeout(this.#fullBuildTimer);
    this.#fullBuildTimer = setTimeout(() => void this.request(), this.#options.fullBuildDelayMs ?? 600_000);
    this.#fullBuildTimer.unref();
  }

  async #build(): Promise<BuildResult> {
    const { buildsDir, projectRoot, log } = this.#options;
    const started = performance.now();
    const changesAtStart = this.#changes;
    clearTimeout(this.#fullBuildTimer);
    await mkdir(buildsDir, { recursive: true });
    await linkPackages(projectRoot, buildsDir);
    const stamp = Date.now().toString(36);
    const outDir = path.join(buildsDir, `build-${stamp}`);
    const keysDir = `${outDir}.keys`;
    // Built by a process that stays, keeping its renderer for this build's incremental passes (decision 0091).
    const renderer =
      this.#options.keepRenderer === false ? undefined : await BuildProcess.start(path.join(buildsDir, `renderer-${stamp}`), buildEnv(this.#options));
    const built = renderer
      ? await renderer.run("full", projectRoot, { ASTRO_OUT_DIR: outDir, SITE_BUILD_KEYS: keysDir })
      : await runAstroBuild(projectRoot, outDir, this.#options, { SITE_BUILD_KEYS: keysDir });
    const output = built.ok ? await indexForSearch(outDir) : built;
    const next: LiveBuild = { dir: outDir, keysDir, search: { changed: new Set(), removed: new Set() }, ...(renderer && { renderer }) };
    // A change that arrived while this build ran may not be in it: it catches up before going live,
    // one incremental build at a time.
    let changesCaughtUp = changesAtStart;
    if (output.ok && this.#changes !== changesAtStart) {
      await this.#incrementalRunning?.catch(() => undefined);
      changesCaughtUp = this.#changes;
      const caughtUp = await this.#applyChanges(next);
      if (!caughtUp.ok) Object.assign(output, caughtUp);
    }
    const ms = Math.round(performance.now() - started);
    if (!output.ok) {
      log(`Site build failed after ${String(ms)} ms; the previous site keeps serving.\n${output.tail}`);
      await renderer?.stop();
      await rm(outDir, { recursive: true, force: true });
      await rm(keysDir, { recursive: true, force: true });
      return { ok: false, ms };
    }
    await this.#swapIn(outDir, this.#live?.renderer);
    this.#live = next;
    log(`Site built in ${String(ms)} ms.`);
    // A change applied to the replaced site after the catch-up read its data: once more on this one.
    if (this.#changes !== changesCaughtUp) void this.change();
    return { ok: true, ms };
  }

  /** `renderer`: the replaced build's process, stopped with it. */
  async #swapIn(outDir: string, renderer: BuildProcess | undefined): Promise<void> {
    const { publishDir, buildsDir } = this.#options;
    const previous = await currentTarget(publishDir);
    const tempLink = `${publishDir}.next`;
    await rm(tempLink, { force: true });
    await symlink(outDir, tempLink, "dir");
    // A real folder (from a plain `astro build`) can't be replaced by rename: clear it first.
    if ((await currentTarget(publishDir)) === "directory") await rm(publishDir, { recursive: true, force: true });
    await rename(tempLink, publishDir);
    // The replaced build goes after a grace period, so responses streaming from it complete.
    if (renderer) setTimeout(() => void renderer.stop(), 30_000).unref();
    if (previous && previous !== "directory" && path.dirname(previous) === buildsDir) {
      setTimeout(() => {
        void rm(previous, { recursive: true, force: true });
        void rm(`${previous}.keys`, { recursive: true, force: true });
      }, 30_000).unref();
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
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ ok: boolean; tail: string }> {
  return new Promise((resolve) => {
    const astro = path.join(projectRoot, "node_modules", "astro", "bin", "astro.mjs");
    const child = spawn(process.execPath, [astro, "build", "--silent", "--root", projectRoot], {
      cwd: options.buildsDir,
      env: { ...buildEnv(options), ...extraEnv, ASTRO_OUT_DIR: outDir },
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

/** Every build's environment: the server's, with this site's Astro cache. */
function buildEnv(options: Pick<SiteBuilderOptions, "cacheDir" | "env">): NodeJS.ProcessEnv {
  return { ...options.env, ASTRO_CACHE_DIR: options.cacheDir, ASTRO_TELEMETRY_DISABLED: "1" };
}
