import { publicCommentCounts } from "../comments/comments.service.ts";
import { recordWebhookEvent } from "../webhooks/webhook-events.ts";
import { isRowId } from "../db/row-id.ts";
import { altToStore } from "../shared/image-alt.schema.ts";
import { limitOffset, type ListPage } from "../list-page.ts";
import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import type { FileStore } from "../files/file-store.ts";
import type { RequestRebuild } from "../publishing/rebuild.ts";
import type { Clock } from "../shared/clock.ts";
import type { ApiUrls } from "../shared/links.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { deleteFilesQuietly } from "../files/file-store.ts";
import { checkAndCleanImage, newImageKey } from "../files/image-cleaning.ts";
import type { FediverseCounts, Post, PostForm } from "./post.schema.ts";
import { publishStateAfterSave } from "./post-schedule.ts";
import { postPath } from "./post-slug-rules.ts";
import { insertPostRow, postColumns, type PostRow } from "./post-rows.ts";
import { asSlugConflict, recordSlugChange, slugToSave } from "./post-slug-store.ts";
import { postTagSlugs, setPostTags } from "./post-tags.ts";
import { postFeedFolders, queuePostHubPing } from "./post-hub-ping.ts";
import { isEmptyPostHtml, sanitizePostHtml, type IsOwnImage } from "./sanitize-post-html.ts";

/** What posts need: the database, the file store, the clock, a rebuild after a change, and image links. */
export interface PostsDeps {
  db: SqlExecutor;
  files: FileStore;
  now: Clock["now"];
  rebuild: RequestRebuild;
  urls: Pick<ApiUrls, "file" | "isFile">;
}

const isoDate = (value: Date | string): string => new Date(value).toISOString();

function toPost(row: PostRow, fileUrl: ApiUrls["file"], tags: string[], commentCount: number, fediverse: FediverseCounts): Post {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    excerpt: row.excerpt,
    emailSubject: row.email_subject,
    category: row.category,
    readTime: row.read_time,
    published: row.published,
    publishedAt: row.published_at === null ? null : isoDate(row.published_at),
    createdAt: isoDate(row.created_at),
    updatedAt: isoDate(row.updated_at),
    featuredImage: row.featured_image_key ? fileUrl(row.featured_image_key) : null,
    featuredImageAlt: row.featured_image_key ? row.featured_image_alt : null,
    featuredImageFocus:
      row.featured_image_key && row.featured_image_focus_x !== null && row.featured_image_focus_y !== null
        ? { x: row.featured_image_focus_x, y: row.featured_image_focus_y }
        : null,
    slug: row.slug,
    url: postPath(row.slug),
    publishAt: row.publish_at === null ? null : isoDate(row.publish_at),
    tags,
    sendAsNewsletter: row.send_as_newsletter,
    commentsClosed: row.comments_closed,
    commentCount,
    fediverse,
  };
}

/** A post as its webhook events carry it (src/core/webhooks/webhook.schema.ts). */
function postEventData(row: { id: number; title: string; slug: string; published: boolean }) {
  return { id: row.id, title: row.title, slug: row.slug, path: row.published ? postPath(row.slug) : null };
}

/** The posts of these rows, each with its tags (one query for all of them). */
async function withTags(db: SqlQueryable, rows: PostRow[], fileUrl: ApiUrls["file"]): Promise<Post[]> {
  const tags = await postTagSlugs(
    db,
    rows.map((row) => row.id),
  );
  const counts = await publicCommentCounts(
    db,
    rows.map((row) => row.id),
  );
  const reactions = await fediverseCounts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    toPost(row, fileUrl, tags.get(row.id) ?? [], counts.get(row.id) ?? 0, reactions.get(row.id) ?? { likes: 0, boosts: 0, replies: 0 }),
  );
}

/** Each post's likes, boosts and replies from the fediverse (issue 45 point 5), one query for all of them. */
async function fediverseCounts(db: SqlQueryable, ids: number[]): Promise<Map<number, FediverseCounts>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: number; likes: number; boosts: number; replies: number }>(
    `SELECT p.id,
            (SELECT count(*)::int FROM fediverse_reactions r WHERE r.post_id = p.id AND r.kind = 'like') AS likes,
            (SELECT count(*)::int FROM fediverse_reactions r WHERE r.post_id = p.id AND r.kind = 'boost') AS boosts,
            (SELECT count(*)::int FROM comments c WHERE c.post_id = p.id AND c.fediverse_object_id IS NOT NULL) AS replies
       FROM unnest($1::int[]) AS p(id)`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, { likes: row.likes, boosts: row.boosts, replies: row.replies }]));
}

/**
 * Published posts newest first (the public list), or every post by creation (the admin list);
 * all of them, or one page.
 */
export async function listPosts(
  deps: Pick<PostsDeps, "db" | "urls">,
  { publishedOnly, page }: { publishedOnly: boolean; page?: ListPage },
): Promise<Post[]> {
  const order = publishedOnly ? "WHERE published ORDER BY published_at DESC, id DESC" : "ORDER BY created_at DESC, id DESC";
  const { rows } = page
    ? await deps.db.query<PostRow>(`SELECT ${postColumns} FROM posts ${order} LIMIT $1 OFFSET $2`, limitOffset(page))
    : await deps.db.query<PostRow>(`SELECT ${postColumns} FROM posts ${order}`);
  return withTags(deps.db, rows, deps.urls.file);
}

/** One post; a draft is only found for the admin (`includeDrafts`), else it does not exist. */
export async function getPost(deps: Pick<PostsDeps, "db" | "urls">, id: number, { includeDrafts }: { includeDrafts: boolean }): Promise<Post> {
  const row = await findPostRow(deps.db, id);
  if (!row || (!row.published && !includeDrafts)) throw new NotFoundError("Post not found");
  return (await withTags(deps.db, [row], deps.urls.file))[0] as Post;
}

async function findPostRow(db: SqlQueryable, id: number, forUpdate = false): Promise<PostRow | undefined> {
  if (!isRowId(id)) return undefined;
  const { rows } = await db.query<PostRow>(`SELECT ${postColumns} FROM posts WHERE id = $1${forUpdate ? " FOR UPDATE" : ""}`, [id]);
  return rows[0];
}

function cleanContent(html: string, isOwnImage: IsOwnImage): string {
  const content = sanitizePostHtml(html, isOwnImage);
  if (isEmptyPostHtml(content)) throw new ValidationError("Content is required");
  return content;
}

/** Checks an image by its bytes, cleans it and stores it under a fresh key; returns the key. */
async function storeImage(deps: Pick<PostsDeps, "files">, file: File): Promise<string> {
  const image = await checkAndCleanImage(file);
  const key = newImageKey(image);
  await deps.files.put(key, image.bytes, { contentType: image.contentType, fileName: image.fileName });
  return key;
}

/**
 * Runs a database write that refers to a just-stored image; if the write fails the image is
 * deleted again, so a failed save leaves no orphan file in the store.
 */
async function withStoredImage<T>(deps: PostsDeps, file: File | undefined, write: (key: string | null) => Promise<T>): Promise<T> {
  const key = file ? await storeImage(deps, file) : null;
  try {
    return await write(key);
  } catch (error) {
    await deleteFilesQuietly(deps.files, [key]);
    throw error;
  }
}

export async function createPost(deps: PostsDeps, form: PostForm): Promise<Post> {
  const content = cleanContent(form.content, deps.urls.isFile);
  const now = deps.now();
  const state = publishStateAfterSave(form, now);
  const row = await withStoredImage(deps, form.featuredImage, (imageKey) =>
    deps.db
      .transaction(async (tx) => {
        const slug = await slugToSave(tx, { id: null, title: form.title, wanted: form.slug, current: null });
        const row = await insertPostRow(tx, {
          title: form.title,
          content,
          excerpt: form.excerpt,
          category: form.category,
          readTime: form.readTime,
          published: state.published,
          publishedAt: state.publishedAt,
          publishAt: state.publishAt,
          featuredImageKey: imageKey,
          featuredImageAlt: altToStore(form.featuredImageAlt, form.featuredImageDecorative) ?? null,
          featuredImageFocus: form.featuredImageFocus ?? null,
          createdAt: now,
          slug,
          sendAsNewsletter: form.sendAsNewsletter ?? false,
          commentsClosed: form.commentsClosed ?? false,
          emailSubject: form.emailSubject ?? null,
          tags: form.tags ?? [],
        });
        if (row.published) {
          await recordWebhookEvent(tx, deps, "post.published", postEventData(row));
          await queuePostHubPing(tx, deps, row);
        }
        return row;
      })
      .catch((error: unknown) => {
        throw asSlugConflict(error);
      }),
  );
  // A draft is on no page (a scheduled one is built when it goes live): only a published post asks for a build.
  if (row.published) deps.rebuild();
  return (await withTags(deps.db, [row], deps.urls.file))[0] as Post;
}

/**
 * Replaces a post's fields. Publishing stamps `publishedAt` once and keeps it while the post stays
 * published; unpublishing clears it; a time ahead schedules it (post-schedule.ts). A new slug
 * leaves the old one redirecting here. A new featured image replaces (and deletes) the old one;
 * without one the current image is kept.
 */
export async function updatePost(deps: PostsDeps, id: number, form: PostForm): Promise<Post> {
  const content = cleanContent(form.content, deps.urls.isFile);
  const alt = altToStore(form.featuredImageAlt, form.featuredImageDecorative);
  const now = deps.now();
  const { row, replacedKey, onSite } = await withStoredImage(deps, form.featuredImage, (imageKey) =>
    deps.db
      .transaction(async (tx) => {
        const current = await findPostRow(tx, id, true);
        if (!current) throw new NotFoundError("Post not found");
        // The feeds it is in before the change: a post that leaves a category or a tag changes that feed too.
        const feedsBefore = current.published ? await postFeedFolders(tx, id, current.category) : [];
        const slug = await slugToSave(tx, { id, title: form.title, wanted: form.slug, current: current.slug });
        const publishedAt = current.published_at === null ? null : new Date(current.published_at);
        const state = publishStateAfterSave(form, now, { published: current.published, publishedAt });
        const { rows } = await tx.query<PostRow>(
          `UPDATE posts SET title = $2, content = $3, excerpt = $4, category = $5, read_time = $6, published = $7,
             published_at = $8, featured_image_key = COALESCE($9, featured_image_key), updated_at = $10, slug = $11, publish_at = $12,
             send_as_newsletter = COALESCE($13, send_as_newsletter),
             comments_closed = COALESCE($21, comments_closed),
             email_subject = CASE WHEN $16::boolean THEN $17::text ELSE email_subject END,
             featured_image_alt = CASE WHEN $9::text IS NOT NULL OR $14::boolean THEN $15::text ELSE featured_image_alt END,
             featured_image_focus_x = CASE WHEN $9::text IS NOT NULL OR $18::boolean THEN $19::smallint ELSE featured_image_focus_x END,
             featured_image_focus_y = CASE WHEN $9::text IS NOT NULL OR $18::boolean THEN $20::smallint ELSE featured_image_focus_y END
           WHERE id = $1
           RETURNING ${postColumns}`,
          [
            id,
            form.title,
            content,
            form.excerpt,
            form.category,
            form.readTime,
            state.published,
            state.publishedAt,
            imageKey,
            now,
            slug,
            state.publishAt,
            form.sendAsNewsletter ?? null,
            // A new image takes the alt given with it; without one, a given alt replaces the stored one.
            alt !== undefined,
            alt ?? null,
            // Left out (a client that does not know it): the stored subject is kept.
            form.emailSubject !== undefined,
            form.emailSubject ?? null,
            // A new image takes the point given with it (none: the middle); without one, a given point replaces the stored one.
            form.featuredImageFocus !== undefined,
            form.featuredImageFocus?.x ?? null,
            form.featuredImageFocus?.y ?? null,
            form.commentsClosed ?? null,
          ],
        );
        await recordSlugChange(tx, id, current.slug, slug);
        const saved = rows[0] as PostRow;
        const change = saved.published ? (current.published ? "post.updated" : "post.published") : current.published ? "post.unpublished" : null;
        if (change) await recordWebhookEvent(tx, deps, change, postEventData(saved));
        if (form.tags !== undefined) await setPostTags(tx, id, form.tags);
        if (change) await queuePostHubPing(tx, deps, saved, feedsBefore);
        return { row: rows[0] as PostRow, replacedKey: imageKey ? current.featured_image_key : null, onSite: change !== null };
      })
      .catch((error: unknown) => {
        throw asSlugConflict(error);
      }),
  );
  await deleteFilesQuietly(deps.files, [replacedKey]);
  // Published before or after (an edit, a publish, an unpublish): a draft staying a draft changes no page.
  if (onSite) deps.rebuild();
  return (await withTags(deps.db, [row], deps.urls.file))[0] as Post;
}

/** Deletes a post, then its featured image. */
export async function deletePost(deps: PostsDeps, id: number): Promise<void> {
  if (!isRowId(id)) throw new NotFoundError("Post not found");
  const deleted = await deps.db.transaction(async (tx) => {
    const current = await findPostRow(tx, id, true);
    const feedsBefore = current?.published ? await postFeedFolders(tx, id, current.category) : [];
    const { rows } = await tx.query<{ featured_image_key: string | null; id: number; title: string; slug: string; published: boolean }>(
      "DELETE FROM posts WHERE id = $1 RETURNING featured_image_key, id, title, slug, published",
      [id],
    );
    if (rows[0]?.published) {
      await recordWebhookEvent(tx, deps, "post.unpublished", postEventData({ ...rows[0], published: false }));
      await queuePostHubPing(tx, deps, { ...rows[0], published: false, updated_at: null, category: null }, feedsBefore);
    }
    return rows[0];
  });
  if (!deleted) throw new NotFoundError("Post not found");
  await deleteFilesQuietly(deps.files, [deleted.featured_image_key]);
  if (deleted.published) deps.rebuild();
}

/** An image for inside a post's content (the editor's image button); the URL goes into the HTML. */
export async function uploadPostImage(deps: Pick<PostsDeps, "files" | "urls">, file: File): Promise<{ imageUrl: string }> {
  return { imageUrl: deps.urls.file(await storeImage(deps, file)) };
}

/** A scheduled post that has just gone live: named by its title and address in the server log. */
export interface PostGoneLive {
  id: number;
  title: string;
  url: string;
}

/**
 * Publishes every scheduled post whose time has come (dated at its scheduled time) and asks for a
 * rebuild when there was any. Safe to run often and from two places at once: a post goes live once.
 */
export async function publishDuePosts(
  deps: Pick<PostsDeps, "db" | "now" | "rebuild">,
  rebuildOptions?: Parameters<PostsDeps["rebuild"]>[0],
): Promise<PostGoneLive[]> {
  const now = deps.now();
  const rows = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number; title: string; slug: string; published: boolean; updated_at: Date; category: Post["category"] }>(
      `UPDATE posts SET published = true, published_at = publish_at, publish_at = NULL, updated_at = $1
       WHERE publish_at <= $1 AND NOT published
       RETURNING id, title, slug, published, updated_at, category`,
      [now],
    );
    for (const row of rows) {
      await recordWebhookEvent(tx, deps, "post.published", postEventData(row));
      await queuePostHubPing(tx, deps, row);
    }
    return rows;
  });
  if (rows.length > 0) deps.rebuild(rebuildOptions);
  return rows.map((row) => ({ id: row.id, title: row.title, url: postPath(row.slug) })).sort((a, b) => a.id - b.id);
}
