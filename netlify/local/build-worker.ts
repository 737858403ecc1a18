import { rename, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { AstroPrerenderer } from "astro";
import { build } from "astro";
import { buildGenerationKey } from "../../src/adapters/page-keys.ts";
import { keptRendererKey, type BuildJob, type BuildJobResult, type KeepRenderer } from "./kept-renderer.ts";

/**
 * A site build process that outlives its build (docs/decisions/0091-kept-renderer.md): the local
 * builder forks one per full build; it runs `astro build` in process and keeps the build's server half
 * loaded, so each incremental pass on that build renders its changed pages with the same code, without
 * starting Astro, loading its config or bundling again (5–20 s a pass before, most of it Astro's
 * fixed cost). Jobs arrive over IPC, one at a time: `full` once, then `partial`s. A partial this
 * process cannot serve answers `unavailable`, and the builder runs a plain `astro build` instead.
 */

interface StandardPrerenderer extends AstroPrerenderer {
  // Set by Astro's default prerenderer's setup: the app of the build's server half.
  app: {
    routeCache?: { clearAll(): void };
    getOptions(): GenerateOptions;
  };
}

/** What Astro's `generatePages` and `runHookBuildDone` read of a build's options (astro/dist/core/build). */
interface GenerateOptions {
  settings: { config: { outDir: URL }; prerenderer?: unknown };
  allPages: Record<string, { route: { distURL?: URL[] } }>;
  pageNames: string[];
  logger: unknown;
}

type GeneratePages = (options: GenerateOptions, internals: unknown, prerenderOutputDir: URL) => Promise<void>;
type RunHookBuildDone = (options: { settings: unknown; pages: string[]; routes: unknown[]; logger: unknown }) => Promise<void>;

// Astro's own steps after its bundling, from the installed version (not in its exports map: the version
// is pinned, and netlify/local/incremental-build.test.ts fails if they change shape).
const astroDir = path.dirname(createRequire(import.meta.url).resolve("astro/package.json"));
const astroModule = <T>(file: string) => import(pathToFileURL(path.join(astroDir, "dist", file)).href) as Promise<T>;

/** The server half of the full build, where Astro writes it when the output folder is outside the working folder. */
const prerenderDir = () => path.join(process.cwd(), ".astro", ".prerender");
const keptDir = () => path.join(process.cwd(), ".astro", ".prerender-kept");

let kept: StandardPrerenderer | undefined;
let generation = 0;

// The config's integration (netlify/local/kept-renderer.ts) hands Astro's default prerenderer here. Its
// teardown moves the server half aside before Astro removes it: pages it loads lazily still import from it.
const keepRenderer: KeepRenderer = (standard) => ({
  name: standard.name,
  setup: async () => {
    await standard.setup?.();
    kept = standard as StandardPrerenderer;
  },
  getStaticPaths: () => standard.getStaticPaths(),
  render: (request, options) => standard.render(request, options),
  teardown: async () => {
    await standard.teardown?.();
    await rm(keptDir(), { recursive: true, force: true });
    await rename(prerenderDir(), keptDir()).catch(() => {
      kept = undefined;
    });
  },
});
(globalThis as Record<symbol, unknown>)[keptRendererKey] = keepRenderer;

/** Each job's own variables, set afresh: none of one job's may leak into the next. */
const jobVariables = ["ASTRO_OUT_DIR", "SITE_BUILD_KEYS", "SITE_BUILD_BASE_KEYS", "SITE_BUILD_LIST_PAGES"];

function setJobEnv(env: Record<string, string>): void {
  for (const name of jobVariables) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, env);
}

async function fullBuild(projectRoot: string): Promise<void> {
  await build({ root: projectRoot, logLevel: "silent" });
  // Back where the bundle's modules import each other from.
  if (kept && (await stat(keptDir()).catch(() => undefined))) await rename(keptDir(), prerenderDir());
  else kept = undefined;
}

/**
 * The changed pages into `outDir`, as `astro build` with the same variables would write them: a new
 * data generation (src/lib/build-data.ts reads afresh), Astro's cache of `getStaticPaths` cleared, its
 * page generation and the integrations' `astro:build:done` (the sitemap, the share images) run again.
 */
async function partialBuild(renderer: StandardPrerenderer, outDir: string): Promise<void> {
  const [{ generatePages }, { runHookBuildDone }] = await Promise.all([
    astroModule<{ generatePages: GeneratePages }>("core/build/generate.js"),
    astroModule<{ runHookBuildDone: RunHookBuildDone }>("integrations/hooks.js"),
  ]);
  generation++;
  (globalThis as Record<symbol, unknown>)[buildGenerationKey] = generation;
  renderer.app.routeCache?.clearAll();
  const options = renderer.app.getOptions();
  options.settings.config.outDir = pathToFileURL(`${outDir}${path.sep}`);
  options.settings.prerenderer = renderer;
  options.pageNames.length = 0;
  const routes = Object.values(options.allPages).map((page) => page.route);
  for (const route of routes) delete route.distURL;
  // The app keeps the full build's internals; generatePages itself only asks whether any page is prerendered.
  const internals = { pagesByKeys: new Map([["", { route: { prerender: true } }]]) };
  await generatePages(options, internals, pathToFileURL(`${prerenderDir()}${path.sep}`));
  await runHookBuildDone({ settings: options.settings, pages: options.pageNames, routes, logger: options.logger });
}

async function run(job: BuildJob): Promise<BuildJobResult> {
  setJobEnv(job.env);
  try {
    if (job.kind === "full") await fullBuild(job.projectRoot);
    else if (!kept) return { id: job.id, ok: false, unavailable: true, tail: "" };
    else await partialBuild(kept, job.env.ASTRO_OUT_DIR ?? "");
    return { id: job.id, ok: true, tail: "" };
  } catch (error) {
    return { id: job.id, ok: false, tail: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

let queue = Promise.resolve();
process.on("message", (job: BuildJob) => {
  queue = queue.then(async () => {
    process.send?.(await run(job));
  });
});
// The server that forked this process is gone: nothing is left to build for.
process.on("disconnect", () => process.exit(0));
