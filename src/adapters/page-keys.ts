import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Page keys of incremental builds (issue 39 point 4, docs/decisions/0089-incremental-site-build.md).
 * Every page of a family (a `getStaticPaths` route) gets a key: a hash of what it shows. A build writes
 * its keys to a folder (`SITE_BUILD_KEYS`); a build given the live site's keys (`SITE_BUILD_BASE_KEYS`)
 * renders only the pages whose key changed or is new, and the local builder (netlify/local) copies them
 * over the live site and removes the pages that no longer exist. The build's side is `changedOnly` in
 * src/lib/build-data.ts; this file has no app in it, so the local builder reads the same files.
 */

export const sha1 = (text: string) => createHash("sha1").update(text).digest("base64url");

/**
 * Which build of a long-lived build process this is (netlify/local/build-worker.ts renders several
 * incremental passes with one loaded build): data read once per build is read again in a new one.
 */
export const buildGenerationKey = Symbol.for("no-filter.build-generation");

/** The current build's generation: 0 in a process that builds once. */
export const buildGeneration = (): number => ((globalThis as Record<symbol, unknown>)[buildGenerationKey] as number | undefined) ?? 0;

/** One page family's keys: each page's path and the hash of what it shows. */
export type PageKeys = Record<string, string>;

// A post appears on many pages (its own, lists, feeds): each is hashed once, by identity (the build
// reads the posts once, so one post is one object on every page that shows it).
const postHashes = new WeakMap<object, string>();
const isPost = (value: unknown): value is object =>
  typeof value === "object" && value !== null && "id" in value && "slug" in value && "content" in value;

/** The key of what one page shows (`props`, posts by their content hash) on top of `shared`. */
export function pageKey(shared: string, props: unknown): string {
  const text = JSON.stringify(props, (_name, value: unknown) => {
    if (!isPost(value)) return value;
    let hash = postHashes.get(value);
    if (hash === undefined) {
      hash = sha1(JSON.stringify(value));
      postHashes.set(value, hash);
    }
    return `post:${hash}`;
  });
  return sha1(`${shared}\n${text}`);
}

/** The pages of `current` to render: all of them without a base, else the changed and the new. */
export function changedPaths(current: PageKeys, base: PageKeys | undefined): Set<string> {
  if (!base) return new Set(Object.keys(current));
  return new Set(Object.keys(current).filter((page) => base[page] !== current[page]));
}

/** The list a list page belongs to: `/blog/tag/x/page/3` → `/blog/tag/x`. */
const listOf = (page: string) => page.replace(/\/page\/\d+$/, "");

/**
 * The changed pages to render now when a list may render at most `perList` (in list order): a post
 * at the top of a list shifts every later page of it, and those wait for the next pass. The rest of
 * the family (posts, feeds: `perList` undefined) renders at once.
 */
export function renderNow(changed: Set<string>, order: string[], perList: number | undefined): Set<string> {
  if (perList === undefined) return changed;
  const counts = new Map<string, number>();
  const now = new Set<string>();
  for (const page of order) {
    if (!changed.has(page)) continue;
    const count = counts.get(listOf(page)) ?? 0;
    if (count >= perList) continue;
    counts.set(listOf(page), count + 1);
    now.add(page);
  }
  return now;
}

/** The file an incremental build leaves in its keys folder when pages wait for the next pass. */
export const deferredMarker = "deferred.txt";

/** One family's keys of the build whose keys are in `dir`; none without a folder, empty for a family it had not. */
export function readKeys(dir: string | undefined, family: string): PageKeys | undefined {
  if (!dir) return undefined;
  try {
    return JSON.parse(readFileSync(path.join(dir, `${family}.json`), "utf8")) as PageKeys;
  } catch {
    // A family the base build did not have (e.g. the first tag page): every page of it is new.
    return {};
  }
}

/**
 * Writes a family's keys to `dir`: a page left for the next pass keeps its old key (a new one
 * "pending"), so that pass renders it; the count of such pages goes to `deferredMarker`.
 */
export function writeKeys(dir: string, family: string, keys: PageKeys, base: PageKeys | undefined, rendered: Set<string>): void {
  const changed = changedPaths(keys, base);
  const written: PageKeys = {};
  for (const [page, key] of Object.entries(keys)) written[page] = (rendered.has(page) || !changed.has(page) ? key : base?.[page]) ?? "pending";
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${family}.json`), JSON.stringify(written));
  const left = [...changed].filter((page) => !rendered.has(page)).length;
  if (left > 0) appendFileSync(path.join(dir, deferredMarker), `${String(left)}\n`);
}
