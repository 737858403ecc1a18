import { createHash } from "node:crypto";
import { cp, mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";

/**
 * The dashboard's JavaScript (React, TipTap, React Query) is the same for every build of one
 * version of the code, yet bundling it was a large share of each site build, paid again on every
 * publish (docs/decisions/0011-dashboard-bundle-cached.md). So it is bundled
 * on its own, once per version of the source, and kept in `node_modules/.cache` (which Netlify
 * also keeps between deploys); every content build copies it in. The admin page's script then
 * only loads it: in a build, `mount.ts` is replaced by a one-line loader of the cached entry.
 * `astro dev` is untouched and bundles the dashboard as any other script, with hot reload.
 */

const entryModule = "src/islands/admin/mount.ts";
/** Where the bundle's files go in the site: hashed names under `/_astro/`, cached as immutable. */
const assetsDir = "_astro/admin";

interface CachedBundle {
  /** The folder holding `assetsDir`. */
  dir: string;
  /** The entry's URL path on the site. */
  entryUrl: string;
  built: boolean;
}

/** A key for everything the bundle is made from: the source tree, the lockfile and this file. */
export async function sourceKey(root: string): Promise<string> {
  const hash = createHash("sha256");
  const sources = (await readdir(path.join(root, "src"), { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  for (const file of [...sources, path.join(root, "package-lock.json"), path.join(root, "tsconfig.json"), fileURLToPath(import.meta.url)]) {
    hash.update(path.relative(root, file)).update("\0");
    hash.update(await readFile(file).catch(() => Buffer.alloc(0))).update("\0");
  }
  return hash.digest("hex").slice(0, 20);
}

async function readEntryUrl(dir: string): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as Record<string, { file: string }>;
  const entry = manifest[entryModule];
  if (!entry) throw new Error(`the dashboard bundle's manifest has no ${entryModule}`);
  return `/${entry.file}`;
}

/** The bundle for this version of the source: from the cache, or built into it. */
export async function cachedAdminBundle(root: string): Promise<CachedBundle> {
  const cacheRoot = path.join(root, "node_modules", ".cache", "no-filter-admin-app");
  const key = await sourceKey(root);
  const dir = path.join(cacheRoot, key);
  try {
    return { dir, entryUrl: await readEntryUrl(dir), built: false };
  } catch {
    // Not built for this version yet.
  }
  // Built aside and renamed into place: two builds at once (tests and a benchmark) never see half.
  const scratch = `${dir}.${String(process.pid)}.tmp`;
  const { build } = await import("vite");
  await build({
    configFile: false,
    root,
    mode: "production",
    logLevel: "warn",
    publicDir: false,
    // Apart from the site build's own cache, which would otherwise be re-optimized at every switch.
    cacheDir: path.join(cacheRoot, ".vite"),
    oxc: { jsx: { runtime: "automatic" } },
    build: {
      outDir: scratch,
      emptyOutDir: true,
      assetsDir,
      manifest: "manifest.json",
      rolldownOptions: {
        input: path.join(root, entryModule),
        // React Query's "use client" marks mean nothing in a browser-only bundle.
        onwarn: (warning, warn) => {
          if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
        },
      },
    },
  });
  // Another build may have finished the same version first: same key, same files, keep theirs.
  // A folder for this key is never removed, since a running build may be copying from it.
  await rename(scratch, dir).catch(() => rm(scratch, { recursive: true, force: true }));
  // Other versions' bundles (and scratch folders of builds that died) go once surely unused.
  const staleBefore = Date.now() - 60 * 60 * 1000;
  for (const name of await readdir(cacheRoot)) {
    if (name === key || name === ".vite") continue;
    const other = path.join(cacheRoot, name);
    const modified = await stat(other).then(
      (info) => info.mtimeMs,
      () => Date.now(),
    );
    if (modified < staleBefore) await rm(other, { recursive: true, force: true });
  }
  return { dir, entryUrl: await readEntryUrl(dir), built: true };
}

export function adminAppBundle(): AstroIntegration {
  let bundle: CachedBundle | undefined;
  let replaced = false;
  return {
    name: "no-filter:admin-app-bundle",
    hooks: {
      "astro:config:setup": async ({ command, config, updateConfig, logger }) => {
        if (command !== "build") return;
        const root = fileURLToPath(config.root);
        const started = performance.now();
        bundle = await cachedAdminBundle(root);
        logger.info(`Dashboard bundle ${bundle.built ? `built in ${String(Math.round(performance.now() - started))} ms` : "reused"}.`);
        const entryPath = path.join(root, entryModule);
        const entryUrl = bundle.entryUrl;
        updateConfig({
          vite: {
            plugins: [
              {
                name: "no-filter:admin-app-loader",
                enforce: "pre",
                load(id) {
                  if (id.split("?")[0] !== entryPath) return null;
                  replaced = true;
                  // A URL the bundler leaves alone: the browser fetches the cached entry itself.
                  return `import(/* @vite-ignore */ new URL(${JSON.stringify(entryUrl)}, document.baseURI).href);\n`;
                },
              },
            ],
          },
        });
      },
      "astro:build:done": async ({ dir }) => {
        if (!bundle) return;
        // Moved or renamed, the entry would be bundled in full again, silently: say so instead.
        if (!replaced) throw new Error(`${entryModule} was never loaded by the build: update netlify/admin-app-bundle.ts`);
        const target = fileURLToPath(new URL(assetsDir, dir));
        await mkdir(target, { recursive: true });
        await cp(path.join(bundle.dir, assetsDir), target, { recursive: true });
      },
    },
  };
}
