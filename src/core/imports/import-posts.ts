import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { deleteFilesQuietly, type FileStore } from "../files/file-store.ts";
import { cleanImage, newImageKey } from "../files/image-cleaning.ts";
import { maxAltLength } from "../shared/image-alt.schema.ts";
import { checkImage } from "../files/upload-rules.ts";
import { postCategories, maxEmailSubject, maxReadTime, minReadTime, type PostCategory } from "../posts/post.schema.ts";
import { maxTagName, maxTagsPerPost } from "../posts/tag.schema.ts";
import { insertPostRow } from "../posts/post-rows.ts";
import { firstFreeSlug, slugFromTitle, slugSchema } from "../posts/post-slug-rules.ts";
import { isEmptyPostHtml, sanitizePostHtml } from "../posts/sanitize-post-html.ts";
import type { RequestRebuild } from "../publishing/rebuild.ts";
import { escapeHtml } from "../shared/escape-html.ts";
import type { ApiUrls } from "../shared/links.ts";
import type { ImportItem, ImportReport, ImportSource } from "./import.schema.ts";
import { isSkippedItem, warningFor, type ImportedPost, type SourceItem } from "./imported-post.ts";
import { oldPathOf, recordImportRedirect } from "./import-redirects.ts";
import { absoluteImageUrl, imageSources, plainText, readTimeOf, replaceImageSources } from "./post-images.ts";

/**
 * Fetches an image from the old site (src/adapters/image-fetcher.ts: http/https only, no private
 * addresses, a size and a time limit). Throws an Error whose message says why it failed.
 */
export type FetchImage = (url: string) => Promise<{ bytes: Uint8Array; contentType: string | null }>;

/** What an import needs: the database, the file store, the clock, a rebuild, image links and the image fetcher. */
export interface ImportDeps {
  db: SqlExecutor;
  files: FileStore;
  now: () => Date;
  rebuild: RequestRebuild;
  urls: Pick<ApiUrls, "file" | "isFile">;
  fetchImage: FetchImage;
}

/** What this run has given out so far: later items see it, in a dry run as in an import. */
export interface RunClaims {
  sourceIds: Set<string>;
  slugs: Set<string>;
  oldPaths: Set<string>;
}

export interface ImportContext {
  source: ImportSource;
  dryRun: boolean;
  /** The old site's address: relative images and old links are read against it. */
  siteUrl: string | null;
  report: ImportReport;
  claims: RunClaims;
  /** How many items the report lists (the totals count them all). */
  listedItems: number;
}

export const newClaims = (): RunClaims => ({ sourceIds: new Set(), slugs: new Set(), oldPaths: new Set() });

const maxTitle = 200;
const maxExcerpt = 500;

function categoryOf(tags: string[]): PostCategory | null {
  for (const tag of tags) {
    const match = postCategories.find((category) => category.toLowerCase() === tag.trim().toLowerCase());
    if (match) return match;
  }
  return null;
}

/**
 * A source's tag names as tags here: one line, no comma (the post form separates tags with commas),
 * at most the name's length, each once whatever its case, at most a post's number of tags.
 */
function tagNamesOf(post: ImportedPost): string[] {
  const names = new Map<string, string>();
  for (const name of post.postTags ?? []) {
    const clean = name
      .replace(/[,\s]+/g, " ")
      .trim()
      .slice(0, maxTagName)
      .trim();
    if (clean && !names.has(clean.toLowerCase())) names.set(clean.toLowerCase(), clean);
  }
  return [...names.values()].slice(0, maxTagsPerPost);
}

/** Copies one image into the store (checked and cleaned as an upload is); returns its key. */
async function copyImage(deps: ImportDeps, url: string): Promise<string> {
  const fetched = await deps.fetchImage(url);
  const name = new URL(url).pathname.split("/").pop() || "image";
  const image = await cleanImage(await checkImage(new File([new Uint8Array(fetched.bytes)], name)));
  const key = newImageKey(image);
  await deps.files.put(key, image.bytes, { contentType: image.contentType, fileName: image.fileName });
  return key;
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Where an image that could not be copied was: visible in the post and its editor, so the owner adds it again. */
export const missingImageMarker = "[Image not copied";

function placeholderFor(src: string, alt: string | null | undefined): string {
  const name = alt?.trim() || src.split(/[?#]/)[0]?.split("/").pop() || "an image";
  return `<em>${missingImageMarker}: ${escapeHtml(name.slice(0, 200))}]</em>`;
}

/** The HTML with each image's `src` replaced by ours, or the image replaced by a visible placeholder. */
function withImages(html: string, ours: (src: string) => string | null): string {
  const placeholders = new Map<string, string>();
  const marked = replaceImageSources(html, (src, alt) => {
    const url = ours(src);
    if (url) return url;
    const token = `nf-missing-image-${String(placeholders.size)}`;
    placeholders.set(token, placeholderFor(src, alt));
    return { replaceWith: token };
  });
  let result = marked;
  for (const [token, placeholder] of placeholders) result = result.replace(token, placeholder);
  return result;
}

async function importedBefore(db: SqlQueryable, source: ImportSource, sourceId: string): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM imported_posts WHERE source = $1 AND source_id = $2", [source, sourceId]);
  return rows.length > 0;
}

async function redirectTaken(db: SqlQueryable, oldPath: string): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM import_redirects WHERE old_path = $1", [oldPath]);
  return rows.length > 0;
}

/** The slug the post had when free here and in this run (and valid), else the first free one from it or the title. */
async function freeSlug(db: SqlQueryable, claims: RunClaims, post: ImportedPost): Promise<string> {
  const wanted = post.slug ? slugSchema.safeParse(post.slug) : null;
  const base = wanted?.success ? wanted.data : slugFromTitle(post.slug ?? post.title);
  return firstFreeSlug(base, async (candidates) => {
    const { rows } = await db.query<{ slug: string }>("SELECT slug FROM posts WHERE slug = ANY($1::text[])", [candidates]);
    return new Set([...rows.map((row) => row.slug), ...candidates.filter((slug) => claims.slugs.has(slug))]);
  });
}

function publishState(post: ImportedPost, now: Date): { published: boolean; publishedAt: Date | null; publishAt: Date | null } {
  if (post.state === "published") return { published: true, publishedAt: post.publishedAt ?? post.createdAt ?? now, publishAt: null };
  if (post.state === "scheduled" && post.publishedAt) return { published: false, publishedAt: null, publishAt: post.publishedAt };
  return { published: false, publishedAt: null, publishAt: null };
}

/** An image the post shows: where to fetch it, or why it cannot be. */
type PlannedImage = { src: string; url: string } | { src: string; reason: string };

/** What importing a post will do, decided before any write: a dry run reports it, an import carries it out. */
type PostPlan =
  | { skip: string }
  | {
      slug: string;
      images: PlannedImage[];
      redirect: string | null;
      status: NonNullable<ImportItem["status"]>;
      category: PostCategory | null;
    };

/**
 * Decides what becomes of a post, reading the database and this run's claims only: the same for a
 * dry run and for the import. An image is counted as arriving (a placeholder keeps its place if it
 * does not), so whether a post is empty never hangs on the old site answering.
 */
async function planPost(deps: ImportDeps, context: ImportContext, post: ImportedPost): Promise<PostPlan> {
  const { claims, report } = context;
  if (claims.sourceIds.has(post.sourceId)) return { skip: "It appears twice in the export: imported once." };
  if (await importedBefore(deps.db, context.source, post.sourceId)) return { skip: "Already imported by an earlier import." };
  const wanted = [...new Set([...(post.featureImage ? [post.featureImage] : []), ...imageSources(post.html)])];
  const images = wanted.map((src): PlannedImage => ({ src, ...absoluteImageUrl(src, context.siteUrl) }));
  const stand = deps.urls.file("images/planned.png");
  const content = sanitizePostHtml(
    withImages(post.html, (src) => (images.some((image) => image.src === src && "url" in image) ? stand : null)),
    deps.urls.isFile,
  );
  if (isEmptyPostHtml(content))
    return { skip: post.html.trim() ? "Nothing is left of it after cleaning its HTML." : "The export holds no text for it." };
  const slug = await freeSlug(deps.db, claims, post);
  if (post.slug && slug !== post.slug)
    report.warnings.push(warningFor(post, `The slug "${post.slug}" is taken or not valid here: it becomes "${slug}".`));
  let redirect = post.oldUrl ? oldPathOf(post.oldUrl, context.siteUrl, slug) : null;
  if (redirect && (claims.oldPaths.has(redirect) || (await redirectTaken(deps.db, redirect)))) {
    report.warnings.push(warningFor(post, `Its old address ${redirect} already leads to another post: it keeps doing so.`));
    redirect = null;
  }
  if (post.title.length > maxTitle) report.warnings.push(warningFor(post, `The title was cut to ${String(maxTitle)} characters.`));
  if (post.state === "scheduled" && !post.publishedAt)
    report.warnings.push(warningFor(post, "A scheduled post without a date: imported as a draft."));
  const state = publishState(post, deps.now());
  const status = state.published ? "published" : state.publishAt ? "scheduled" : "draft";
  return { slug, images, redirect, status, category: categoryOf(post.tags) };
}

/** Writes a planned post: its images copied (a failed one leaves a placeholder), the row, its import record and its redirect. */
async function writePost(
  deps: ImportDeps,
  context: ImportContext,
  post: ImportedPost,
  plan: Exclude<PostPlan, { skip: string }>,
): Promise<{ needsImages: boolean }> {
  const keys = new Map<string, string>();
  const copied: string[] = [];
  let needsImages = false;
  for (const image of plan.images) {
    if (!("url" in image)) {
      needsImages = true;
      continue;
    }
    try {
      const key = await copyImage(deps, image.url);
      keys.set(image.src, key);
      copied.push(key);
      context.report.images.copied += 1;
    } catch (error) {
      needsImages = true;
      context.report.images.failed.push({ url: image.url, reason: reasonOf(error) });
    }
  }
  const content = sanitizePostHtml(
    withImages(post.html, (src) => {
      const key = keys.get(src);
      return key ? deps.urls.file(key) : null;
    }),
    deps.urls.isFile,
  );
  try {
    await deps.db.transaction(async (tx) => {
      const state = publishState(post, deps.now());
      const featured = post.featureImage ? (keys.get(post.featureImage) ?? null) : null;
      const excerpt = post.excerpt ? plainText(post.excerpt).slice(0, maxExcerpt) || null : null;
      const { id } = await insertPostRow(tx, {
        title: post.title.slice(0, maxTitle),
        content,
        excerpt,
        category: plan.category,
        readTime: readTimeOf(content, { min: minReadTime, max: maxReadTime }),
        published: state.published,
        publishedAt: state.publishedAt,
        publishAt: state.publishAt,
        featuredImageKey: featured,
        featuredImageAlt: post.featureImageAlt?.slice(0, maxAltLength) ?? null,
        emailSubject: post.emailSubject?.slice(0, maxEmailSubject) || null,
        createdAt: post.createdAt ?? state.publishedAt ?? deps.now(),
        updatedAt: deps.now(),
        slug: plan.slug,
        tags: tagNamesOf(post),
      });
      await tx.query("INSERT INTO imported_posts (source, source_id, post_id) VALUES ($1, $2, $3)", [context.source, post.sourceId, id]);
      if (plan.redirect) await recordImportRedirect(tx, plan.redirect, id);
    });
  } catch (error) {
    await deleteFilesQuietly(deps.files, copied);
    throw error;
  }
  return { needsImages };
}

function listItem(context: ImportContext, item: ImportItem): void {
  const { report } = context;
  report.totals.items += 1;
  if (item.outcome === "imported") report.totals.imported += 1;
  else if (item.outcome === "skipped") report.totals.skipped += 1;
  else report.totals.failed += 1;
  if (report.items.length < context.listedItems) report.items.push(item);
}

const notImported = { status: null, category: null, slug: null, images: 0, redirect: null, needsImages: false } as const;

/**
 * Imports one item of the export (or, in a dry run, says what importing it would do) and adds it
 * to the report: an item that is not a post, a post already imported or empty, is skipped with the
 * reason; otherwise the plan (slug, status, category, images, redirect) is decided the same way for
 * both, and the import carries it out: its images copied into the store (a failure leaves a
 * placeholder and flags the post "needs images"), its HTML sanitized, stored, and its old address
 * kept for a redirect. All of one post or none of it: a failed write deletes the images it copied
 * and lists the post as failed with the error.
 */
export async function importItem(deps: ImportDeps, context: ImportContext, item: SourceItem): Promise<void> {
  const { report } = context;
  if (isSkippedItem(item)) {
    listItem(context, { kind: item.kind, sourceId: item.sourceId, title: item.title, outcome: "skipped", reason: item.skipped, ...notImported });
    return;
  }
  const post = item;
  const base = { kind: "post", sourceId: post.sourceId, title: post.title.slice(0, maxTitle) };
  for (const message of post.warnings) report.warnings.push(warningFor(post, message));
  const plan = await planPost(deps, context, post);
  if ("skip" in plan) {
    report.posts.skipped += 1;
    listItem(context, { ...base, outcome: "skipped", reason: plan.skip, ...notImported });
    return;
  }
  for (const image of plan.images) if ("reason" in image) report.images.failed.push({ url: image.src, reason: image.reason });
  const planned = {
    ...base,
    status: plan.status,
    category: plan.category,
    slug: plan.slug,
    images: plan.images.length,
    redirect: plan.redirect,
    needsImages: plan.images.some((image) => "reason" in image),
  };
  let needsImages = planned.needsImages;
  if (context.dryRun) report.images.copied += plan.images.filter((image) => "url" in image).length;
  else {
    try {
      ({ needsImages } = await writePost(deps, context, post, plan));
    } catch (error) {
      report.posts.failed += 1;
      listItem(context, { ...planned, outcome: "failed", reason: `Could not be imported: ${reasonOf(error)}` });
      return;
    }
  }
  context.claims.sourceIds.add(post.sourceId);
  context.claims.slugs.add(plan.slug);
  if (plan.redirect) {
    context.claims.oldPaths.add(plan.redirect);
    report.redirects += 1;
  }
  report.posts.new += 1;
  listItem(context, { ...planned, outcome: "imported", reason: null, needsImages });
}
