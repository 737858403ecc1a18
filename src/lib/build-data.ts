import { siteBuildDeps, type SiteBuildDeps } from "../app/site-build-deps.ts";
import { keptUnlessFailed } from "../core/shared/kept-unless-failed.ts";
import { readServerEnv, stripeSettings, type ServerEnv } from "../config/server-env.ts";
import type { PublicDownload } from "../core/downloads/download.schema.ts";
import { listDownloads } from "../core/downloads/downloads.service.ts";
import type { Post } from "../core/posts/post.schema.ts";
import { listPosts } from "../core/posts/posts.service.ts";
import { publishedPostRedirects } from "../core/posts/post-slug-store.ts";
import { publishedImportRedirects } from "../core/imports/import-redirects.ts";
import type { Tag } from "../core/posts/tag.schema.ts";
import { listTags, tagRedirects } from "../core/posts/tags.service.ts";
import { isShownOnSite, type SettingKey } from "../core/settings/settings.schema.ts";
import { siteSettingValues } from "../core/settings/settings.service.ts";
import { websubHub } from "../core/publishing/websub.ts";
import { ensureShareImages, type ShareImageDeps, type ShareImageInput } from "../core/share-images/share-image.ts";
import { folderShareImageCache, readDisplayFont } from "../adapters/share-image-cache.ts";
import { imageKey, isPublicFileUrl } from "../api/routes/files.routes.ts";
import { buildGeneration, changedPaths, pageKey, readKeys, renderNow, sha1, writeKeys, type PageKeys } from "../adapters/page-keys.ts";

// Pages read data only here, when the site is built; a content change triggers a rebuild.

export type SiteSettings = Record<SettingKey, string>;

// A site build is a composition root: it reads its configuration once and puts its parts together
// once, on first use (a build that reads no data opens no database). A failed start is not kept.
let env: ServerEnv | undefined;
const buildDeps: () => Promise<SiteBuildDeps> = keptUnlessFailed(() => siteBuildDeps(buildEnv()));

/** The site build's configuration, read from its environment once. */
export function buildEnv(): ServerEnv {
  return (env ??= readServerEnv(process.env));
}

/** Whether the build's environment sets Stripe up (docs/payments.md): priced resources get a Buy form only then. */
export function paymentsEnabled(): boolean {
  return stripeSettings(buildEnv()) !== undefined;
}

/**
 * A read that every page of a build shares: a build reads it once, not once per page
 * (docs/decisions/0009-build-reads-data-once.md); `astro dev` reads it
 * for every page so a change shows on the next reload. A failed read is not kept.
 */
function oncePerBuild<T>(read: () => Promise<T>): () => Promise<T> {
  let shared: Promise<T> | undefined;
  let generation = 0;
  return () => {
    if (import.meta.env.DEV) return read();
    // A new incremental pass of a long-lived build process (netlify/local/build-worker.ts) reads afresh.
    if (generation !== buildGeneration()) {
      generation = buildGeneration();
      shared = undefined;
    }
    shared ??= read().catch((error: unknown) => {
      shared = undefined;
      throw error;
    });
    return shared;
  };
}

/** This build's markup rendered once, by what it depends on besides the build's data (`builtOnce`). */
const markupOfThisBuild = oncePerBuild(() => Promise.resolve(new Map<string, Promise<string>>()));

/**
 * Markup a build renders once and every page then shares: the header, the footer, the boxes under a
 * post and the public islands are the same on thousands of pages, and rendering them again for each
 * was a fifth of a build's CPU (docs/decisions/0097-markup-rendered-once-a-build.md). `key` names what
 * the markup depends on besides the build's data; a new pass of a long-lived build process renders
 * afresh, and `astro dev` every time (`oncePerBuild`). A failed render is not kept. `SITE_BUILD_SHARED_MARKUP=off`
 * renders it on every page.
 */
export async function builtOnce(key: string, render: () => string | Promise<string>): Promise<string> {
  // Each page its own, as before: the incremental-build test's clean build, which must equal a build that shares.
  if (process.env.SITE_BUILD_SHARED_MARKUP === "off") return render();
  const markup = await markupOfThisBuild();
  let html = markup.get(key);
  if (!html) {
    html = Promise.resolve().then(render);
    markup.set(key, html);
    html.catch(() => markup.delete(key));
  }
  return html;
}

/** Site settings for pages, read from the database when the site is built. */
export const loadSiteSettings = oncePerBuild(async (): Promise<SiteSettings> => siteSettingValues(await buildDeps()));

/** The WebSub hub feeds and pages name: the `websub_hub` setting, or the default (Google's; the local hub under `npm start`). */
export const loadWebsubHub = oncePerBuild(async (): Promise<string> =>
  websubHub((await loadSiteSettings()).websub_hub, (await buildDeps()).websubDefaultHub),
);

/** Published posts, newest first. */
export const loadPublishedPosts = oncePerBuild(async (): Promise<Post[]> => listPosts(await buildDeps(), { publishedOnly: true }));

/** Downloadable resources, newest first, as the public page sees them. */
export const loadDownloads = oncePerBuild(async (): Promise<PublicDownload[]> => listDownloads(await buildDeps()));

/** Old addresses of live posts (their id, former slugs) and the slug each now lives at. */
export const loadPostRedirects = oncePerBuild(async (): Promise<{ from: string; to: string }[]> => publishedPostRedirects((await buildDeps()).db));

/** Old addresses of live imported posts on their former site (paths), and the slug each now lives at. */
export const loadImportRedirects = oncePerBuild(async (): Promise<{ from: string; to: string }[]> =>
  publishedImportRedirects((await buildDeps()).db),
);

/** Every tag, by name, with its count of published posts. */
export const loadTags = oncePerBuild(async (): Promise<Tag[]> => listTags(await buildDeps()));

/** Tags' former slugs and the slug each tag has now. */
export const loadTagRedirects = oncePerBuild(async (): Promise<{ from: string; to: string }[]> => tagRedirects((await buildDeps()).db));

/**
 * The share images' needs: the cache in the build's cache folder (`ASTRO_CACHE_DIR`, which a local
 * server points at its state folder, else Astro's default `node_modules/.astro`), the display face,
 * and covers from the file store. docs/decisions/0078-share-images.md
 */
function shareImageNeeds() {
  let font: Promise<Uint8Array> | undefined;
  const cache = folderShareImageCache(process.env.ASTRO_CACHE_DIR ?? "node_modules/.astro");
  const deps: ShareImageDeps = {
    cache,
    displayFont: () => (font ??= readDisplayFont()),
    coverBytes: async (url) => {
      if (!isPublicFileUrl(url)) return null;
      const stored = await (await buildDeps()).files.get(imageKey(url.slice(url.lastIndexOf("/") + 1)));
      return stored?.data ?? null;
    },
  };
  return { deps, file: cache.file };
}

/**
 * The share images, each drawn only when no earlier build drew the same one: the cached file of each
 * by the image's name (`src/pages/share-images.json.ts` hands the list to the build's last step).
 */
export async function loadShareImages(images: readonly { name: string; input: ShareImageInput }[]): Promise<Record<string, string>> {
  const needs = shareImageNeeds();
  const ensured = await ensureShareImages(
    needs.deps,
    images.map((image) => image.input),
  );
  return Object.fromEntries(images.map((image, index) => [image.name, needs.file(ensured[index]?.key ?? "")]));
}

/** In an incremental build, how many changed pages of one list render in this pass (`SITE_BUILD_LIST_PAGES`). */
function listPagesPerPass(): number | undefined {
  const value = Number(process.env.SITE_BUILD_LIST_PAGES);
  return process.env.SITE_BUILD_BASE_KEYS && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * What every page shows besides its own props: the settings pages show (footer, metadata), the tags' names (a
 * post's tags, by name; not their counts, which only the tags' own pages show, through their props),
 * the hub.
 */
const sharedPageKey = oncePerBuild(async (): Promise<string> => {
  const [settings, tags, hub] = await Promise.all([loadSiteSettings(), loadTags(), loadWebsubHub()]);
  // Only what a page can show: a change to a mail or comment rule must not re-render every page.
  const shown = Object.entries(settings).filter(([key]) => isShownOnSite(key as SettingKey));
  // A tag without a published post is on no page: a draft's new tag must not re-render every page.
  const tagNames = tags.filter((tag) => tag.postCount > 0).map((tag) => [tag.slug, tag.name]);
  return sha1(JSON.stringify([shown, tagNames, hub]));
});

/**
 * A page family's `getStaticPaths` entries, narrowed to the changed ones in an incremental build
 * (src/adapters/page-keys.ts, docs/decisions/0089-incremental-site-build.md); its keys are written
 * for the next. `pathOf` gives an entry's public path (`/blog/page/2`, `/blog/tag/x/rss.xml`); `list`:
 * the pages of one list, of which a first pass renders the first changed ones only. Without
 * `SITE_BUILD_KEYS` or `SITE_BUILD_BASE_KEYS` (a deploy, `npm run build`) every entry, as before.
 */
export async function changedOnly<T extends { props: unknown }>(
  family: string,
  entries: T[],
  pathOf: (entry: T) => string,
  { list = false }: { list?: boolean } = {},
): Promise<T[]> {
  const out = process.env.SITE_BUILD_KEYS;
  const baseDir = process.env.SITE_BUILD_BASE_KEYS;
  if (!out && !baseDir) return entries;
  const shared = await sharedPageKey();
  const keys: PageKeys = {};
  for (const entry of entries) keys[pathOf(entry)] = pageKey(shared, entry.props);
  const base = readKeys(baseDir, family);
  const render = renderNow(changedPaths(keys, base), Object.keys(keys), list ? listPagesPerPass() : undefined);
  if (out) writeKeys(out, family, keys, base, render);
  return entries.filter((entry) => render.has(pathOf(entry)));
}
