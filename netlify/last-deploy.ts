/**
 * The last deploy, kept for the next build on Netlify (docs/decisions/0089-incremental-site-build.md,
 * its Netlify addendum). Netlify keeps a site's `node_modules` between its builds, and with it Astro's
 * cache folder (`node_modules/.astro`): a build leaves a copy of its output and its page keys there,
 * stamped with what made them, and the next build of the same code (a publish's build hook: same
 * commit, new content) renders only the pages whose content changed, over a copy of that output.
 */
import { createHash } from "node:crypto";
import { copyFile, link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

/** What a kept output was made by, and the search's delta it carries. */
export interface KeptStamp {
  /** The commit, the Node version and the checked configuration, hashed: a build of anything else is full. */
  code: string;
  /** The posts' pages changed or removed since the kept output's full search index. */
  changed: string[];
  removed: string[];
}

/** The kept folder: `SITE_BUILD_KEEP_DIR`, else `last-deploy/` in Astro's default cache folder. */
export function keptDeployDir(env: NodeJS.ProcessEnv, projectRoot: string): string {
  return path.resolve(projectRoot, env.SITE_BUILD_KEEP_DIR ?? path.join("node_modules", ".astro", "last-deploy"));
}

/**
 * What made a build's output. The commit covers the pages' code and the migrations; the configuration
 * (`readServerEnv`'s result: SITE_URL, ADMIN_PATH, Stripe's keys…) is in no page key, so a change of
 * a variable between two builds of one commit must not meet the old pages.
 */
export function buildCode(commit: string, configuration: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([commit, process.version, configuration]))
    .digest("base64url");
}

/** How many posts the search's delta may hold before a build folds it back into a full index (`SITE_BUILD_DELTA_POSTS`). */
export function deltaPostLimit(env: NodeJS.ProcessEnv): number {
  const text = env.SITE_BUILD_DELTA_POSTS?.trim();
  const value = Number(text);
  return text && Number.isInteger(value) && value >= 0 ? value : 100;
}

export const keptSiteDir = (dir: string) => path.join(dir, "site");
export const keptKeysDir = (dir: string) => path.join(dir, "keys");
const stampFile = (dir: string) => path.join(dir, "stamp.json");

/** The kept deploy's stamp, or none when the folder is missing or partial (the stamp is written last). */
export async function readKeptStamp(dir: string): Promise<KeptStamp | undefined> {
  try {
    const stamp = JSON.parse(await readFile(stampFile(dir), "utf8")) as KeptStamp;
    await Promise.all([stat(path.join(keptSiteDir(dir), "index.html")), stat(path.join(keptKeysDir(dir), "post.json"))]);
    return stamp;
  } catch {
    return undefined;
  }
}

/** Why this build must be a full one, or undefined when it can start from the kept deploy. */
export function fullBuildReason(stamp: KeptStamp | undefined, code: string, env: NodeJS.ProcessEnv): string | undefined {
  if (env.SITE_BUILD_FULL === "1" || env.SITE_BUILD_FULL === "true") return "SITE_BUILD_FULL is set";
  if (!stamp) return "no kept deploy";
  if (stamp.code !== code) return "another commit or configuration than the kept deploy's";
  return undefined;
}

/**
 * A copy of the folder `from` at `to` made of hard links, a plain copy where a link cannot be made
 * (another file system). Sharing the files is safe because nothing writes into one in place: Astro
 * writes a fresh folder and an incremental build replaces each file by a rename.
 */
export async function linkTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const relative = (entry: (typeof entries)[number]) => path.relative(from, path.join(entry.parentPath, entry.name));
  const dirs = entries.filter((entry) => entry.isDirectory()).map(relative);
  const files = entries.filter((entry) => !entry.isDirectory()).map(relative);
  await mkdir(to, { recursive: true });
  // A few hundred at a time: a site of 10,000 posts has tens of thousands of files.
  const inBatches = async (names: string[], each: (name: string) => Promise<unknown>) => {
    for (let start = 0; start < names.length; start += 256) await Promise.all(names.slice(start, start + 256).map(each));
  };
  await inBatches(dirs, (dir) => mkdir(path.join(to, dir), { recursive: true }));
  await inBatches(files, (file) =>
    link(path.join(from, file), path.join(to, file)).catch(() => copyFile(path.join(from, file), path.join(to, file))),
  );
}

/**
 * Keeps `siteDir` (linked) and the keys in `keysDir` (moved) as the kept deploy, stamped last: a
 * build that stops half way leaves no stamp, and the next build is a full one.
 */
export async function keepDeploy(dir: string, siteDir: string, keysDir: string, stamp: KeptStamp): Promise<void> {
  await rm(stampFile(dir), { force: true });
  await Promise.all([rm(keptSiteDir(dir), { recursive: true, force: true }), rm(keptKeysDir(dir), { recursive: true, force: true })]);
  await linkTree(siteDir, keptSiteDir(dir));
  await rename(keysDir, keptKeysDir(dir));
  await writeFile(`${stampFile(dir)}.next`, JSON.stringify(stamp));
  await rename(`${stampFile(dir)}.next`, stampFile(dir));
}
