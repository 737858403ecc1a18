import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { deleteFilesQuietly, type FileStore } from "../files/file-store.ts";
import { cleanImage, newImageKey } from "../files/image-cleaning.ts";
import { maxAltLength } from "../shared/image-alt.schema.ts";
import { checkImage } from "../files/upload-rules.ts";
import { postCategories, maxReadTime, minReadTime, type PostCategory } from "../posts/post.schema.ts";
import { firstFreeSlug, slugFromTitle, slugSchema } from "../posts/post-slug-rules.ts";
import { insertPostRow } from "../posts/post-rows.ts";
import { isEmptyPostHtml, sanitizePostHtml } from "../posts/sanitize-post-html.ts";
import type { RequestRebuild } from "../publishing/rebuild.ts";
import type { ApiUrls } from "../shared/links.ts";
import type { ImportReport, ImportSource } from "./import.schema.ts";
import { warningFor, type ImportedPost } from "./imported-post.ts";
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

export interface ImportContext {
  source: ImportSource;
  dryRun: boolean;
  /** The old site's address: relative images and old links are read against it. */
  siteUrl: string | null;
  report: ImportReport;
}

const maxTitle = 200;
const maxExcerpt = 500;

function categoryOf(tags: string[]): PostCategory | null {
  for (const tag of tags) {
    const match = postCategories.find((category) => category.toLowerCase() === tag.trim().toLowerCase());
    if (match) return match;
  }
  return null;
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

async function alreadyImported(db: SqlQueryable, source: ImportSource, sourceId: string): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM imported_posts WHERE source = $1 AND source_id = $2", [source, sourceId]);
  return rows.length > 0;
}

/** The slug the post had when free (and valid here), else the first free one from it or the title. */
async function freeSlug(db: SqlQueryable, post: ImportedPost): Promise<string> {
  const wanted = post.slug ? slugSchema.safeParse(post.slug) : null;
  const base = wanted?.success ? wanted.data : slugFromTitle(post.slug ?? post.title);
  return firstFreeSlug(base, async (candidates) => {
    const { rows } = await db.query<{ slug: string }>("SELECT slug FROM posts WHERE slug = ANY($1::text[])", [candidates]);
    return new Set(rows.map((row) => row.slug));
  });
}

function publishState(post: ImportedPost, now: Date): { published: boolean; publishedAt: Date | null; publishAt: Date | null } {
  if (post.state === "published") return { published: true, publishedAt: post.publishedAt ?? post.createdAt ?? now, publishAt: null };
  if (post.state === "scheduled" && post.publishedAt) return { published: false, publishedAt: null, publishAt: post.publishedAt };
  return { published: false, publishedAt: null, publishAt: null };
}

/**
 * Imports one post (or, in a dry run, says what importing it would do) and adds it to the report:
 * skipped when an earlier import brought it in; otherwise its images copied into the store (each
 * failure listed), its HTML sanitized, stored with its slug when free, and its old address kept
 * for a redirect. All of one post or none of it: a failed insert deletes the images it copied.
 */
export async function importPost(deps: ImportDeps, context: ImportContext, post: ImportedPost): Promise<void> {
  const { report } = context;
  for (const message of post.warnings) report.warnings.push(warningFor(post, message));
  if (await alreadyImported(deps.db, context.source, post.sourceId)) {
    report.posts.skipped += 1;
    return;
  }
  const sources = imageSources(post.html);
  const wanted = [...new Set([...(post.featureImage ? [post.featureImage] : []), ...sources])];
  const keys = new Map<string, string>();
  const copied: string[] = [];
  for (const src of wanted) {
    const target = absoluteImageUrl(src, context.siteUrl);
    if ("reason" in target) {
      report.images.failed.push({ url: src, reason: target.reason });
      continue;
    }
    if (context.dryRun) {
      report.images.copied += 1;
      keys.set(src, "images/dry-run_1x1.png");
      continue;
    }
    try {
      const key = await copyImage(deps, target.url);
      keys.set(src, key);
      copied.push(key);
      report.images.copied += 1;
    } catch (error) {
      report.images.failed.push({ url: target.url, reason: reasonOf(error) });
    }
  }
  const withOurImages = replaceImageSources(post.html, (src) => {
    const key = keys.get(src);
    return key ? deps.urls.file(key) : null;
  });
  const content = sanitizePostHtml(withOurImages, deps.urls.isFile);
  if (isEmptyPostHtml(content)) {
    report.warnings.push(warningFor(post, "Nothing is left of the post after cleaning its HTML: not imported."));
    report.posts.skipped += 1;
    await deleteFilesQuietly(deps.files, copied);
    return;
  }
  if (post.title.length > maxTitle) report.warnings.push(warningFor(post, `The title was cut to ${String(maxTitle)} characters.`));
  if (post.state === "scheduled" && !post.publishedAt)
    report.warnings.push(warningFor(post, "A scheduled post without a date: imported as a draft."));
  if (context.dryRun) {
    const slug = await freeSlug(deps.db, post);
    if (post.slug && slug !== post.slug)
      report.warnings.push(warningFor(post, `The slug "${post.slug}" is taken or not valid here: it becomes "${slug}".`));
    if (post.oldUrl && oldPathOf(post.oldUrl, context.siteUrl, slug)) report.redirects += 1;
    report.posts.new += 1;
    return;
  }
  try {
    await deps.db.transaction(async (tx) => {
      const slug = await freeSlug(tx, post);
      if (post.slug && slug !== post.slug)
        report.warnings.push(warningFor(post, `The slug "${post.slug}" is taken or not valid here: it becomes "${slug}".`));
      const state = publishState(post, deps.now());
      const featured = post.featureImage ? (keys.get(post.featureImage) ?? null) : null;
      const excerpt = post.excerpt ? plainText(post.excerpt).slice(0, maxExcerpt) || null : null;
      const created = post.createdAt ?? state.publishedAt ?? deps.now();
      const { id } = await insertPostRow(tx, {
        title: post.title.slice(0, maxTitle),
        content,
        excerpt,
        category: categoryOf(post.tags),
        readTime: readTimeOf(content, { min: minReadTime, max: maxReadTime }),
        published: state.published,
        publishedAt: state.publishedAt,
        publishAt: state.publishAt,
        featuredImageKey: featured,
        featuredImageAlt: post.featureImageAlt?.slice(0, maxAltLength) ?? null,
        createdAt: created,
        updatedAt: deps.now(),
        slug,
      });
      await tx.query("INSERT INTO imported_posts (source, source_id, post_id) VALUES ($1, $2, $3)", [context.source, post.sourceId, id]);
      const oldPath = post.oldUrl ? oldPathOf(post.oldUrl, context.siteUrl, slug) : null;
      if (oldPath && (await recordImportRedirect(tx, oldPath, id))) report.redirects += 1;
    });
    report.posts.new += 1;
  } catch (error) {
    await deleteFilesQuietly(deps.files, copied);
    report.warnings.push(warningFor(post, `Could not be imported: ${reasonOf(error)}`));
    report.posts.skipped += 1;
  }
}
