import type { SqlQueryable } from "../db/sql-executor.ts";
import type { ImageFocus } from "../shared/image-focus.schema.ts";
import type { PostCategory } from "./post.schema.ts";
import { setPostTags } from "./post-tags.ts";
import { recordSlugChange } from "./post-slug-store.ts";

/** A post as its table holds it. */
export interface PostRow {
  id: number;
  title: string;
  content: string;
  excerpt: string | null;
  email_subject: string | null;
  category: PostCategory | null;
  read_time: number;
  published: boolean;
  published_at: Date | string | null;
  featured_image_key: string | null;
  featured_image_alt: string | null;
  featured_image_focus_x: number | null;
  featured_image_focus_y: number | null;
  created_at: Date | string;
  updated_at: Date | string;
  slug: string;
  publish_at: Date | string | null;
  send_as_newsletter: boolean;
  comments_closed: boolean;
}

/** The columns of `PostRow`, for a SELECT or a RETURNING. */
export const postColumns =
  "id, title, content, excerpt, category, read_time, published, published_at, featured_image_key, featured_image_alt, featured_image_focus_x, featured_image_focus_y, created_at, updated_at, slug, publish_at, send_as_newsletter, email_subject, comments_closed";

/** A new post's row, already checked: sanitized content, a free slug, the publish state decided. */
export interface NewPostRow {
  title: string;
  content: string;
  excerpt: string | null;
  category: PostCategory | null;
  readTime: number;
  published: boolean;
  publishedAt: Date | null;
  publishAt: Date | null;
  featuredImageKey: string | null;
  /** Stored only beside an image: without one there is nothing to describe. */
  featuredImageAlt: string | null;
  /** Its focal point (issue 41 point 5); null or left out: the middle. Stored only beside an image. */
  featuredImageFocus?: ImageFocus | null;
  createdAt: Date;
  /** Defaults to `createdAt`. */
  updatedAt?: Date;
  slug: string;
  sendAsNewsletter?: boolean;
  /** No new comments (issue 44); left out: open. */
  commentsClosed?: boolean;
  /** The newsletter's subject line; null or left out: the title. */
  emailSubject?: string | null;
  /** Its tags by slug or name, in order; a name no tag has makes a new tag. */
  tags?: readonly string[];
  /** Demo content (the one-click demo): removed together when the owner clears it. */
  demo?: boolean;
}

/**
 * The one place a post row is inserted (the editor's save, an import, the demo seed): the row, its
 * tags, and its slug taking over from any old address that redirected under it (a live post wins
 * over a redirect). Run it inside the caller's transaction.
 */
export async function insertPostRow(db: SqlQueryable, post: NewPostRow): Promise<PostRow> {
  const focus = post.featuredImageKey ? post.featuredImageFocus : null;
  const { rows } = await db.query<PostRow>(
    `INSERT INTO posts (title, content, excerpt, category, read_time, published, published_at, featured_image_key, created_at, updated_at, slug, publish_at, send_as_newsletter, featured_image_alt, demo, email_subject, featured_image_focus_x, featured_image_focus_y, comments_closed)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
     RETURNING ${postColumns}`,
    [
      post.title,
      post.content,
      post.excerpt,
      post.category,
      post.readTime,
      post.published,
      post.publishedAt,
      post.featuredImageKey,
      post.createdAt,
      post.updatedAt ?? post.createdAt,
      post.slug,
      post.publishAt,
      post.sendAsNewsletter ?? false,
      post.featuredImageKey ? post.featuredImageAlt : null,
      post.demo ?? false,
      post.emailSubject ?? null,
      focus?.x ?? null,
      focus?.y ?? null,
      post.commentsClosed ?? false,
    ],
  );
  const created = rows[0] as PostRow;
  await recordSlugChange(db, created.id, null, post.slug);
  if (post.tags && post.tags.length > 0) await setPostTags(db, created.id, post.tags);
  return created;
}
