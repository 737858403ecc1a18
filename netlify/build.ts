/**
 * The production build (`npm run build`, Netlify's build command): apply pending migrations to
 * the production database, then build the static site from it, then its search index from the built
 * pages (netlify/search-index.ts). A failed migration, page or index fails the build.
 *
 * On Netlify (`COMMIT_REF` set) the output and its page keys are kept for the next build
 * (netlify/last-deploy.ts). A build of the same code, as a publish's build hook starts, renders only
 * the pages whose content changed into a scratch folder and applies them over a copy of the kept
 * output, as the local server does (netlify/incremental-build.ts): docs/decisions/0089-incremental-site-build.md.
 */
import { spawnSync } from "node:child_process";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readServerEnv } from "../src/config/server-env.ts";
import { migrateDatabase } from "./database/migrate.ts";
import { applyIncrementalBuild } from "./incremental-build.ts";
import {
  buildCode,
  deltaPostLimit,
  fullBuildReason,
  keepDeploy,
  keptDeployDir,
  keptKeysDir,
  keptSiteDir,
  linkTree,
  readKeptStamp,
  type KeptStamp,
} from "./last-deploy.ts";
import { buildSearchIndex } from "./search-index.ts";

await migrateDatabase();
const started = performance.now();
const projectRoot = fileURLToPath(new URL("..", import.meta.url));
const siteDir = path.resolve(process.env.ASTRO_OUT_DIR ?? path.join(projectRoot, "dist"));

function astroBuild(outDir: string, env: NodeJS.ProcessEnv = {}): void {
  const astro = path.join(projectRoot, "node_modules", "astro", "bin", "astro.mjs");
  const build = spawnSync(process.execPath, [astro, "build", "--root", projectRoot], {
    stdio: "inherit",
    env: { ...process.env, ...env, ASTRO_OUT_DIR: outDir, ASTRO_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** Removes the site's search indexes (`/pagefind/`, its shards, the deltas) before they are written anew. */
async function removeSearchIndexes(dir: string, which: (name: string) => boolean): Promise<void> {
  for (const name of await readdir(dir)) if (which(name)) await rm(path.join(dir, name), { recursive: true, force: true });
}

async function fullBuild(keysDir?: string): Promise<void> {
  // A fresh folder: the kept copy shares its files, which must never be written in place.
  await rm(siteDir, { recursive: true, force: true });
  astroBuild(siteDir, keysDir ? { SITE_BUILD_KEYS: keysDir } : {});
  const searchIndex = await buildSearchIndex(siteDir);
  console.log(`Search index: ${String(searchIndex.records)} records (${String(searchIndex.resources)} resources) in ${String(searchIndex.ms)} ms.`);
}

const commit = process.env.COMMIT_REF;
if (!commit) {
  await fullBuild();
} else {
  const keepDir = keptDeployDir(process.env, projectRoot);
  const scratch = path.join(keepDir, "scratch");
  const keysDir = path.join(scratch, "keys");
  const code = buildCode(commit, readServerEnv(process.env));
  const kept = await readKeptStamp(keepDir);
  const reason = fullBuildReason(kept, code, process.env);
  await rm(scratch, { recursive: true, force: true });
  let stamp: KeptStamp = { code, changed: [], removed: [] };
  if (reason !== undefined || !kept) {
    console.log(`Full build: ${reason ?? "no kept deploy"}.`);
    await fullBuild(keysDir);
  } else {
    // The kept output and keys, copied; the pages whose key changed, rendered in one pass (no list-page limit).
    await rm(siteDir, { recursive: true, force: true });
    await linkTree(keptSiteDir(keepDir), siteDir);
    await linkTree(keptKeysDir(keepDir), keysDir);
    const partialDir = path.join(scratch, "partial");
    const partialKeysDir = path.join(scratch, "partial-keys");
    astroBuild(partialDir, { SITE_BUILD_KEYS: partialKeysDir, SITE_BUILD_BASE_KEYS: keysDir });
    // This build's delta index replaces the kept one's; nobody reads an older one in a new deploy.
    await removeSearchIndexes(siteDir, (name) => name.startsWith("pagefind-delta-"));
    const search = { changed: new Set(kept.changed), removed: new Set(kept.removed) };
    const applied = await applyIncrementalBuild({ liveDir: siteDir, liveKeysDir: keysDir, partialDir, partialKeysDir, search });
    const delta = search.changed.size + search.removed.size;
    let folded = "";
    if (delta > deltaPostLimit(process.env)) {
      // The output is the whole site: its full index is a full build's, without a second Astro build.
      await removeSearchIndexes(siteDir, (name) => name.startsWith("pagefind"));
      const searchIndex = await buildSearchIndex(siteDir);
      folded = `; the search's delta folded back into a full index (${String(searchIndex.records)} records)`;
    } else stamp = { code, changed: [...search.changed], removed: [...search.removed] };
    const count = (n: number, noun: string) => `${String(n)} ${noun}${n === 1 ? "" : "s"}`;
    console.log(
      `Incremental build: ${count(applied.pages, "page")} rendered, ${String(applied.removed)} removed, ${count(delta, "post")} in the search's delta${folded}.`,
    );
  }
  await keepDeploy(keepDir, siteDir, keysDir, stamp);
  await rm(scratch, { recursive: true, force: true });
}
console.log(`Site built in ${String(Math.round(performance.now() - started))} ms.`);
