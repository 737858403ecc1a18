import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { ForbiddenError, NotFoundError, RateLimitedError, UnauthorizedError, ValidationError } from "../errors.ts";
import { takeRateLimit, type RateLimit } from "../rate-limit.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import { countLinks, renderCommentHtml } from "./comment-html.ts";
import {
  bannedMessage,
  commentEditWindowMs,
  commentGoneMessage,
  commentQueuePageSize,
  commentsClosedMessage,
  commentSignedOutMessage,
  commentsOffMessage,
  commentThreadsPerPage,
  commentTooManyMessage,
  editWindowMessage,
  type CommentCounts,
  type CommentCreate,
  type CommentCreated,
  type CommentList,
  type CommentOrder,
  type CommentQueue,
  type CommentQueueQuery,
  type CommentStatus,
  type ModerationAction,
  type PublicComment,
  type QueuedComment,
  type ReaderComments,
  type ReaderStanding,
} from "./comment.schema.ts";

/**
 * Comments under posts (issue 44 points 3–5, decision 0082). Nothing held, hidden, marked spam or
 * written by a banned reader is ever in a public answer: every public read goes through
 * `publicVisibility`, the one condition that says what a visitor may see.
 */

/** What comments need: the database, the clock, the site's name (the owner's name on their comments), the rate limits' multiplier. */
export interface CommentsDeps {
  db: SqlExecutor;
  now: () => Date;
  site: { name: string };
  env?: { RATE_LIMIT_MULTIPLIER?: number | undefined };
}

/** Who writes: a signed-in reader (a subscriber's id) or the owner, writing as the site's author. */
export type CommentAuthor = { kind: "reader"; subscriberId: number } | { kind: "owner" };

/** Who reads a thread: anyone, a signed-in reader (who also sees their own held comments), or the owner. */
export type CommentViewer = { kind: "visitor" } | CommentAuthor;

/** A reader's comments: 5 a minute and 30 an hour (a person writing replies never meets them). */
export const readerMinuteLimit: RateLimit = { bucket: "comment-reader-minute", max: 5, windowMs: 60 * 1000 };
export const readerHourLimit: RateLimit = { bucket: "comment-reader-hour", max: 30, windowMs: 60 * 60 * 1000 };
/** Comments from one client (address), whoever is signed in: 20 in 10 minutes. */
export const clientLimit: RateLimit = { bucket: "comment-client", max: 20, windowMs: 10 * 60 * 1000 };

/** The name an erased reader's published comment shows (decision 0073). */
export const deletedReaderName = "Deleted reader";
/** The name of a reader who has not chosen one on /account. */
export const anonymousReaderName = "Reader";

/** Why a comment waits, as the queue shows it. */
export const holdReasons = {
  alwaysHold: "The reader is marked always hold",
  first: "The reader's first comment",
  links: "More links than the limit",
  words: "A word on the hold list",
} as const;

/** The comment settings, read once a call. */
export interface CommentSettings {
  enabled: boolean;
  linkLimit: number;
  holdWords: string[];
}

export async function commentSettings(db: SqlQueryable): Promise<CommentSettings> {
  const values = await siteSettingValues({ db });
  const limit = Number.parseInt(values.comment_link_limit, 10);
  return {
    enabled: values.comments_enabled !== "off",
    linkLimit: Number.isFinite(limit) && limit >= 0 ? limit : 2,
    holdWords: values.comment_hold_words
      .split(/[,\n]/)
      .map((word) => word.trim().toLowerCase())
      .filter((word) => word.length > 0),
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether the text holds one of the words (or phrases), whole, in any case. */
export function containsHoldWord(text: string, words: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return words.some((word) => new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(word)}($|[^\\p{L}\\p{N}])`, "u").test(lower));
}

/**
 * The one condition of a public answer, over `c` (comments) and `s` (its reader, LEFT JOINed):
 * approved, and not a banned reader's.
 */
const publicVisibility = "c.status = 'approved' AND s.comments_banned_at IS NULL";

interface ThreadRow {
  id: number;
  parent_id: number | null;
  subscriber_id: number | null;
  is_owner: boolean;
  author_name: string | null;
  display_name: string | null;
  html: string;
  status: CommentStatus;
  created_at: Date;
  edited_at: Date | null;
  author_handle: string | null;
  author_url: string | null;
  author_avatar: string | null;
  original_url: string | null;
}

function authorName(row: Pick<ThreadRow, "is_owner" | "author_name" | "display_name" | "subscriber_id">, ownerName: string): string {
  if (row.is_owner) return ownerName;
  if (row.subscriber_id === null) return row.author_name ?? deletedReaderName;
  return row.display_name ?? anonymousReaderName;
}

/** A published post's comment state: 404 for a draft or a missing post (as its page is). */
async function openPost(db: SqlQueryable, postId: number): Promise<{ id: number; slug: string; title: string; closed: boolean }> {
  const { rows } = await db.query<{ id: number; slug: string; title: string; comments_closed: boolean }>(
    "SELECT id, slug, title, comments_closed FROM posts WHERE id = $1 AND published",
    [postId],
  );
  const row = rows[0];
  if (!row) throw new NotFoundError("Post not found");
  return { id: row.id, slug: row.slug, title: row.title, closed: row.comments_closed };
}

/** A published post's slug (for the no-JavaScript form's redirect), or undefined. */
export async function publishedPostSlug(db: SqlQueryable, postId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ slug: string }>("SELECT slug FROM posts WHERE id = $1 AND published", [postId]);
  return rows[0]?.slug;
}

/** A published post by its slug (the no-JavaScript comments page), or undefined: a draft has no comments page. */
export async function publishedPostBySlug(db: SqlQueryable, slug: string): Promise<{ id: number; slug: string; title: string } | undefined> {
  const { rows } = await db.query<{ id: number; slug: string; title: string }>("SELECT id, slug, title FROM posts WHERE slug = $1 AND published", [
    slug,
  ]);
  return rows[0];
}

/**
 * `GET /api/posts/{id}/comments`: a page of top-level comments, each followed by its replies
 * (oldest first). A visitor gets what `publicVisibility` allows; a signed-in reader gets their own
 * held comments too, marked; the feature switched off answers an empty, closed thread.
 */
export async function listPostComments(
  deps: Pick<CommentsDeps, "db" | "now" | "site">,
  postId: number,
  viewer: CommentViewer,
  options: { page?: number | undefined; order?: CommentOrder | undefined } = {},
): Promise<CommentList> {
  const post = await openPost(deps.db, postId);
  const settings = await commentSettings(deps.db);
  const page = options.page ?? 1;
  // Who asks, so the island lets the owner write as the author (it can't read the admin cookie).
  const asker = viewer.kind === "visitor" ? null : viewer.kind;
  if (!settings.enabled) return { comments: [], total: 0, page, pages: 1, open: false, enabled: false, viewer: asker };
  const readerId = viewer.kind === "reader" ? viewer.subscriberId : null;
  // A reader's own held comment is theirs to see (never hidden or spam: those are the owner's call).
  const visible = `((${publicVisibility}) OR (c.status = 'held' AND c.subscriber_id = $2::int))`;
  const direction = options.order === "newest" ? "DESC" : "ASC";
  const { rows } = await deps.db.query<ThreadRow & { total: number; threads: number }>(
    `WITH seen AS (
       SELECT c.*, s.display_name FROM comments c LEFT JOIN subscribers s ON s.id = c.subscriber_id
        WHERE c.post_id = $1 AND ${visible}
     ),
     tops AS (
       SELECT id FROM seen WHERE parent_id IS NULL ORDER BY created_at ${direction}, id ${direction} LIMIT $3 OFFSET $4
     )
     SELECT seen.id, seen.parent_id, seen.subscriber_id, seen.is_owner, seen.author_name, seen.display_name, seen.html,
            seen.status, seen.created_at, seen.edited_at, seen.author_handle, seen.author_url, seen.author_avatar, seen.original_url,
            (SELECT count(*)::int FROM seen) AS total,
            (SELECT count(*)::int FROM seen WHERE parent_id IS NULL) AS threads
       FROM seen
      WHERE seen.id IN (SELECT id FROM tops) OR seen.parent_id IN (SELECT id FROM tops)`,
    [post.id, readerId, commentThreadsPerPage, (page - 1) * commentThreadsPerPage],
  );
  const order = new Map<number, number>();
  const tops = rows.filter((row) => row.parent_id === null);
  tops.sort((a, b) => (a.created_at.getTime() - b.created_at.getTime() || a.id - b.id) * (direction === "DESC" ? -1 : 1));
  tops.forEach((row, index) => order.set(row.id, index));
  const replies = rows
    .filter((row) => row.parent_id !== null && order.has(row.parent_id))
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id - b.id);
  const comments: PublicComment[] = [];
  for (const top of tops) {
    comments.push(toPublic(deps, top, viewer));
    for (const reply of replies) if (reply.parent_id === top.id) comments.push(toPublic(deps, reply, viewer));
  }
  // Counts come with the rows; a page past the end has none, so ask once more for them.
  let total = rows[0]?.total;
  let threads = rows[0]?.threads;
  if (total === undefined || threads === undefined) {
    const counts = await deps.db.query<{ total: number; threads: number }>(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE c.parent_id IS NULL))::int AS threads
         FROM comments c LEFT JOIN subscribers s ON s.id = c.subscriber_id WHERE c.post_id = $1 AND ${visible}`,
      [post.id, readerId],
    );
    total = counts.rows[0]?.total ?? 0;
    threads = counts.rows[0]?.threads ?? 0;
  }
  return { comments, total, page, pages: Math.max(1, Math.ceil(threads / commentThreadsPerPage)), open: !post.closed, enabled: true, viewer: asker };
}

function toPublic(deps: Pick<CommentsDeps, "site">, row: ThreadRow, viewer: CommentViewer): PublicComment {
  const mine = (viewer.kind === "reader" && row.subscriber_id === viewer.subscriberId) || (viewer.kind === "owner" && row.is_owner);
  return {
    id: row.id,
    parentId: row.parent_id,
    author: {
      name: authorName(row, deps.site.name),
      isOwner: row.is_owner,
      // A reply from the fediverse (issue 45 point 5): who wrote it, and where.
      ...(row.author_handle !== null && { handle: row.author_handle, url: row.author_url ?? "", avatar: row.author_avatar }),
    },
    ...(row.original_url !== null && { originalUrl: row.original_url }),
    html: row.html,
    createdAt: row.created_at.toISOString(),
    editedAt: row.edited_at?.toISOString() ?? null,
    ...(row.status === "held" && { status: "held" as const }),
    ...(mine && { mine: true as const }),
    ...(mine && viewer.kind === "reader" && { editableUntil: new Date(row.created_at.getTime() + commentEditWindowMs).toISOString() }),
  };
}

/** Takes a comment hit; a refusal answers 429 with the comment's own words and the wait. */
async function limit(deps: Pick<CommentsDeps, "db" | "now" | "env">, rateLimit: RateLimit, key: string): Promise<void> {
  try {
    await takeRateLimit(deps, rateLimit, key);
  } catch (error) {
    if (error instanceof RateLimitedError) throw new RateLimitedError(commentTooManyMessage, error.retryAfterSeconds);
    throw error;
  }
}

interface ReaderRow {
  status: string;
  comments_banned_at: Date | null;
  comments_always_hold: boolean;
  has_approved: boolean;
}

/** The hold rule of a reader's new comment, or null when it goes up at once (issue 44 point 4). */
export function holdReason(reader: Pick<ReaderRow, "comments_always_hold" | "has_approved">, body: string, settings: CommentSettings): string | null {
  if (reader.comments_always_hold) return holdReasons.alwaysHold;
  if (!reader.has_approved) return holdReasons.first;
  if (countLinks(body) > settings.linkLimit) return holdReasons.links;
  if (containsHoldWord(body, settings.holdWords)) return holdReasons.words;
  return null;
}

/** What `createComment` did: stored (with the notices it queued) or, for a filled honeypot, nothing. */
export type CommentWritten = CommentCreated & { stored: boolean; slug: string };

/** The id a filled honeypot's answer carries: looks like a comment's, names none. */
const honeypotId = 0;

/**
 * `POST /api/posts/{id}/comments`. The owner's comment is approved at once; a reader's is counted
 * against the rate limits, then held by the first rule that applies (`holdReason`). A filled
 * honeypot is answered as a held comment would be, and nothing is stored. A reply to a reply
 * attaches to the top-level comment. `onApproved` runs in the transaction for an approved comment
 * (the reply notice).
 */
export async function createComment(
  deps: CommentsDeps,
  input: { postId: number; author: CommentAuthor | null; comment: CommentCreate; clientIp: string },
  onApproved?: (tx: SqlQueryable, commentId: number) => Promise<void>,
): Promise<CommentWritten> {
  const { author, comment } = input;
  if (!author) throw new UnauthorizedError(commentSignedOutMessage);
  const post = await openPost(deps.db, input.postId);
  const settings = await commentSettings(deps.db);
  if (!settings.enabled) throw new ForbiddenError(commentsOffMessage);
  if (post.closed) throw new ForbiddenError(commentsClosedMessage);
  let reader: ReaderRow | undefined;
  if (author.kind === "reader") {
    const { rows } = await deps.db.query<ReaderRow>(
      `SELECT s.status, s.comments_banned_at, s.comments_always_hold,
              EXISTS (SELECT 1 FROM comments c WHERE c.subscriber_id = s.id AND c.status = 'approved') AS has_approved
         FROM subscribers s WHERE s.id = $1`,
      [author.subscriberId],
    );
    reader = rows[0];
    if (!reader) throw new UnauthorizedError(commentSignedOutMessage);
    if (reader.comments_banned_at) throw new ForbiddenError(bannedMessage);
    await limit(deps, clientLimit, input.clientIp);
    await limit(deps, readerMinuteLimit, `reader:${String(author.subscriberId)}`);
    await limit(deps, readerHourLimit, `reader:${String(author.subscriberId)}`);
  }
  if (comment.website) return { id: honeypotId, status: "held", stored: false, slug: post.slug };
  const parentId = comment.parentId === undefined ? null : await replyParent(deps.db, post.id, comment.parentId, author);
  const hold = reader ? holdReason(reader, comment.body, settings) : null;
  const status = hold ? "held" : "approved";
  const now = deps.now();
  const id = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO comments (post_id, parent_id, subscriber_id, is_owner, body, html, status, hold_reason, created_at, moderated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        post.id,
        parentId,
        author.kind === "reader" ? author.subscriberId : null,
        author.kind === "owner",
        comment.body,
        renderCommentHtml(comment.body),
        status,
        hold,
        now,
        hold ? null : now,
      ],
    );
    const row = rows[0];
    if (!row) throw new Error("comment insert returned no row");
    if (!hold && onApproved) await onApproved(tx, row.id);
    return row.id;
  });
  return { id, status, stored: true, slug: post.slug };
}

/** The top-level comment a reply attaches to: one the author may see on this post, else 400. */
async function replyParent(db: SqlQueryable, postId: number, parentId: number, author: CommentAuthor): Promise<number> {
  const readerId = author.kind === "reader" ? author.subscriberId : null;
  const ownerSees = author.kind === "owner";
  const { rows } = await db.query<{ id: number; parent_id: number | null }>(
    `SELECT c.id, c.parent_id FROM comments c LEFT JOIN subscribers s ON s.id = c.subscriber_id
      WHERE c.id = $1 AND c.post_id = $2
        AND ($4::boolean OR (${publicVisibility}) OR (c.status = 'held' AND c.subscriber_id = $3::int))`,
    [parentId, postId, readerId, ownerSees],
  );
  const row = rows[0];
  if (!row) throw new ValidationError("That comment can't be replied to: it is not on this post, or it is gone.");
  return row.parent_id ?? row.id;
}

interface OwnRow {
  id: number;
  subscriber_id: number | null;
  is_owner: boolean;
  created_at: Date;
  status: CommentStatus;
}

/** The comment if this author may change it now: the owner any comment, a reader their own within 15 minutes. */
async function changeable(deps: Pick<CommentsDeps, "db" | "now">, id: number, author: CommentAuthor | null): Promise<OwnRow> {
  if (!author) throw new UnauthorizedError(commentSignedOutMessage);
  const { rows } = await deps.db.query<OwnRow & { banned: boolean }>(
    `SELECT c.id, c.subscriber_id, c.is_owner, c.created_at, c.status, s.comments_banned_at IS NOT NULL AS banned
       FROM comments c LEFT JOIN subscribers s ON s.id = c.subscriber_id WHERE c.id = $1`,
    [id],
  );
  const row = rows[0];
  if (author.kind === "owner") {
    if (!row) throw new NotFoundError(commentGoneMessage);
    return row;
  }
  // Another's comment (or a hidden one of theirs) names nothing they may reach: 404, as a missing one.
  if (!row || row.subscriber_id !== author.subscriberId || row.status === "hidden" || row.status === "spam")
    throw new NotFoundError(commentGoneMessage);
  if (row.banned) throw new ForbiddenError(bannedMessage);
  if (deps.now().getTime() - row.created_at.getTime() > commentEditWindowMs) throw new ForbiddenError(editWindowMessage);
  return row;
}

/**
 * `PUT /api/comments/{id}`: new text, rendered again. A reader's edit of an approved comment goes
 * through the hold rules again (but not the first-comment rule): links added after approval wait.
 */
export async function editComment(
  deps: CommentsDeps,
  id: number,
  author: CommentAuthor | null,
  body: string,
): Promise<{ id: number; html: string; editedAt: string; status: CommentStatus }> {
  const row = await changeable(deps, id, author);
  let status = row.status;
  let reason: string | null = null;
  if (author?.kind === "reader" && status === "approved") {
    const settings = await commentSettings(deps.db);
    reason = holdReason({ comments_always_hold: false, has_approved: true }, body, settings);
    if (reason) status = "held";
  }
  const html = renderCommentHtml(body);
  const now = deps.now();
  await deps.db.query(
    "UPDATE comments SET body = $2, html = $3, edited_at = $4, status = $5, hold_reason = coalesce($6, hold_reason) WHERE id = $1",
    [id, body, html, now, status, reason],
  );
  return { id, html, editedAt: now.toISOString(), status };
}

/** `DELETE /api/comments/{id}`: the comment and its replies go. */
export async function deleteComment(deps: Pick<CommentsDeps, "db" | "now">, id: number, author: CommentAuthor | null): Promise<void> {
  await changeable(deps, id, author);
  await deps.db.query("DELETE FROM comments WHERE id = $1", [id]);
}

/** How many comments wait for approval (the dashboard tab's badge). */
export async function countHeldComments(db: SqlQueryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM comments WHERE status = 'held'");
  return rows[0]?.n ?? 0;
}

/** `GET /api/comments?status=&q=&page=`: the owner's queue, newest first, with each comment's post and author. */
export async function listCommentQueue(deps: Pick<CommentsDeps, "db" | "site">, query: CommentQueueQuery): Promise<CommentQueue> {
  const page = query.page ?? 1;
  const q = query.q ? `%${query.q.replace(/[\\%_]/g, "\\$&")}%` : null;
  const { rows } = await deps.db.query<
    ThreadRow & {
      body: string;
      hold_reason: string | null;
      post_id: number;
      title: string;
      slug: string;
      email: string | null;
      banned: boolean | null;
      always_hold: boolean | null;
      total: number;
    }
  >(
    `SELECT c.id, c.parent_id, c.subscriber_id, c.is_owner, c.author_name, s.display_name, c.html, c.body, c.status, c.hold_reason,
            c.created_at, c.edited_at, p.id AS post_id, p.title, p.slug, s.email,
            s.comments_banned_at IS NOT NULL AS banned, s.comments_always_hold AS always_hold,
            count(*) OVER ()::int AS total
       FROM comments c JOIN posts p ON p.id = c.post_id LEFT JOIN subscribers s ON s.id = c.subscriber_id
      WHERE ($1::text IS NULL OR c.status = $1)
        AND ($2::text IS NULL OR c.body ILIKE $2 OR s.email ILIKE $2 OR s.display_name ILIKE $2 OR p.title ILIKE $2)
      ORDER BY c.created_at DESC, c.id DESC
      LIMIT $3 OFFSET $4`,
    [query.status ?? null, q, commentQueuePageSize, (page - 1) * commentQueuePageSize],
  );
  const comments: QueuedComment[] = rows.map((row) => ({
    id: row.id,
    parentId: row.parent_id,
    post: { id: row.post_id, title: row.title, slug: row.slug },
    author: {
      name: authorName(row, deps.site.name),
      isOwner: row.is_owner,
      readerId: row.subscriber_id,
      email: row.email,
      banned: row.banned ?? false,
      alwaysHold: row.always_hold ?? false,
    },
    body: row.body,
    html: row.html,
    status: row.status,
    holdReason: row.hold_reason,
    createdAt: row.created_at.toISOString(),
    editedAt: row.edited_at?.toISOString() ?? null,
  }));
  let total = rows[0]?.total;
  if (total === undefined) {
    const counted = await deps.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM comments c JOIN posts p ON p.id = c.post_id LEFT JOIN subscribers s ON s.id = c.subscriber_id
        WHERE ($1::text IS NULL OR c.status = $1)
          AND ($2::text IS NULL OR c.body ILIKE $2 OR s.email ILIKE $2 OR s.display_name ILIKE $2 OR p.title ILIKE $2)`,
      [query.status ?? null, q],
    );
    total = counted.rows[0]?.n ?? 0;
  }
  return { comments, total, page, pages: Math.max(1, Math.ceil(total / commentQueuePageSize)), held: await countHeldComments(deps.db) };
}

const actionStatus: Record<Exclude<ModerationAction, "delete">, CommentStatus> = { approve: "approved", hide: "hidden", spam: "spam" };

/**
 * `POST /api/comments/moderate`: approve, hide, mark spam or delete each comment named (ids not
 * found are skipped). `onApproved` runs in the transaction for each comment that became approved
 * (the reply notices). Answers how many changed.
 */
export async function moderateComments(
  deps: Pick<CommentsDeps, "db" | "now">,
  input: { ids: number[]; action: ModerationAction },
  onApproved?: (tx: SqlQueryable, commentIds: number[]) => Promise<void>,
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    if (input.action === "delete") {
      const { rows } = await tx.query<{ id: number }>("DELETE FROM comments WHERE id = ANY($1::int[]) RETURNING id", [input.ids]);
      return rows.length;
    }
    const status = actionStatus[input.action];
    const { rows } = await tx.query<{ id: number }>(
      "UPDATE comments SET status = $2, moderated_at = $3 WHERE id = ANY($1::int[]) AND status <> $2 RETURNING id",
      [input.ids, status, deps.now()],
    );
    if (status === "approved" && rows.length > 0 && onApproved) {
      await onApproved(
        tx,
        rows.map((row) => row.id),
      );
    }
    return rows.length;
  });
}

export type StandingChange = "ban" | "unban" | "hold" | "unhold";

/**
 * The owner's word about a reader: banned (can't post; their comments leave every public answer at
 * once, and come back as they were on unban) or always held.
 */
export async function setReaderStanding(
  deps: Pick<CommentsDeps, "db" | "now">,
  subscriberId: number,
  change: StandingChange,
): Promise<ReaderStanding> {
  const set = {
    ban: "comments_banned_at = coalesce(comments_banned_at, $2)",
    unban: "comments_banned_at = NULL",
    hold: "comments_always_hold = true",
    unhold: "comments_always_hold = false",
  }[change];
  const { rows } = await deps.db.query<{ id: number; banned: boolean; always_hold: boolean }>(
    `UPDATE subscribers SET ${set} WHERE id = $1
     RETURNING id, comments_banned_at IS NOT NULL AS banned, comments_always_hold AS always_hold`,
    change === "ban" ? [subscriberId, deps.now()] : [subscriberId],
  );
  const row = rows[0];
  if (!row) throw new NotFoundError("Reader not found");
  return { id: row.id, banned: row.banned, alwaysHold: row.always_hold };
}

/**
 * A person's erase (decision 0073): their comments that wait, or were hidden or marked spam, are
 * deleted; their published ones stay, anonymised as "Deleted reader" (the subscriber's row going
 * then clears `subscriber_id`). Runs in the erase's transaction, before the row is deleted.
 */
export async function eraseReaderComments(tx: SqlQueryable, subscriberId: number): Promise<void> {
  await tx.query("DELETE FROM comments WHERE subscriber_id = $1 AND status <> 'approved'", [subscriberId]);
  await tx.query("UPDATE comments SET author_name = $2, subscriber_id = NULL WHERE subscriber_id = $1", [subscriberId, deletedReaderName]);
}

/** A person's comments for their export: the post, the text, its state and times. */
export async function exportReaderComments(
  db: SqlQueryable,
  subscriberId: number,
): Promise<{ id: number; post: string; postTitle: string; body: string; status: CommentStatus; createdAt: string; editedAt: string | null }[]> {
  const { rows } = await db.query<{
    id: number;
    slug: string;
    title: string;
    body: string;
    status: CommentStatus;
    created_at: Date;
    edited_at: Date | null;
  }>(
    `SELECT c.id, p.slug, p.title, c.body, c.status, c.created_at, c.edited_at
       FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.subscriber_id = $1 ORDER BY c.created_at, c.id`,
    [subscriberId],
  );
  return rows.map((row) => ({
    id: row.id,
    post: row.slug,
    postTitle: row.title,
    body: row.body,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    editedAt: row.edited_at?.toISOString() ?? null,
  }));
}

/**
 * The reader's own comments for their page (issue 44 point 2): those shown under a published post
 * and those waiting, newest first; hidden and spam are the owner's call and stay in the export only.
 */
export async function listReaderComments(db: SqlQueryable, subscriberId: number): Promise<ReaderComments> {
  const { rows } = await db.query<{ id: number; slug: string; title: string; body: string; status: "approved" | "held"; created_at: Date }>(
    `SELECT c.id, p.slug, p.title, c.body, c.status, c.created_at
       FROM comments c JOIN posts p ON p.id = c.post_id
      WHERE c.subscriber_id = $1 AND c.status IN ('approved', 'held') AND p.published
      ORDER BY c.created_at DESC, c.id DESC LIMIT 200`,
    [subscriberId],
  );
  return {
    comments: rows.map((row) => ({
      id: row.id,
      post: { slug: row.slug, title: row.title },
      body: row.body,
      status: row.status,
      createdAt: row.created_at.toISOString(),
    })),
  };
}

/** The public comment count of each post named (what its card and Stats show): `publicVisibility` only. */
export async function publicCommentCounts(db: SqlQueryable, postIds: readonly number[]): Promise<Map<number, number>> {
  if (postIds.length === 0) return new Map();
  const { rows } = await db.query<{ post_id: number; n: number }>(
    `SELECT c.post_id, count(*)::int AS n FROM comments c LEFT JOIN subscribers s ON s.id = c.subscriber_id
      WHERE c.post_id = ANY($1::int[]) AND ${publicVisibility} GROUP BY c.post_id`,
    [postIds],
  );
  return new Map(rows.map((row) => [row.post_id, row.n]));
}

/**
 * `GET /api/comments/counts`: what the post cards show, refreshed in the browser so an approval
 * shows on the built list pages without a rebuild (decision 0086). Published posts only; every id
 * asked for is answered (0 when it has none, is a draft or is unknown), in the order asked.
 */
export async function commentCountsForCards(db: SqlQueryable, postIds: readonly number[]): Promise<CommentCounts> {
  if (!(await commentSettings(db)).enabled) return { enabled: false, counts: [] };
  const { rows } = await db.query<{ id: number }>("SELECT id FROM posts WHERE id = ANY($1::int[]) AND published", [postIds]);
  const counts = await publicCommentCounts(
    db,
    rows.map((row) => row.id),
  );
  return { enabled: true, counts: postIds.map((id) => ({ id, comments: counts.get(id) ?? 0 })) };
}

/**
 * Stats' comments per post: each post with a public comment, its public count, and how many of
 * those were written in the range (days `from`–`to`, UTC, inclusive); most commented first.
 */
export async function commentStatsByPost(
  db: SqlQueryable,
  range: { from: string; to: string },
  limit: number,
): Promise<{ id: number; title: string; path: string; comments: number; inRange: number }[]> {
  const { rows } = await db.query<{ id: number; title: string; slug: string; comments: number; in_range: number }>(
    `SELECT p.id, p.title, p.slug, count(*)::int AS comments,
            (count(*) FILTER (WHERE (c.created_at AT TIME ZONE 'UTC')::date BETWEEN $1::date AND $2::date))::int AS in_range
       FROM comments c JOIN posts p ON p.id = c.post_id LEFT JOIN subscribers s ON s.id = c.subscriber_id
      WHERE ${publicVisibility}
      GROUP BY p.id, p.title, p.slug ORDER BY comments DESC, p.title LIMIT $3`,
    [range.from, range.to, limit],
  );
  return rows.map((row) => ({ id: row.id, title: row.title, path: `/blog/${row.slug}`, comments: row.comments, inRange: row.in_range }));
}

/** A reply from the fediverse (issue 45 point 5): its author as their server names them, and the original. */
export interface RemoteReply {
  postId: number;
  /** The Note's id: one comment per Note, so a delivery that comes twice stores one. */
  objectId: string;
  actorId: string;
  name: string;
  /** `user@server`. */
  handle: string;
  url: string;
  avatar: string | null;
  originalUrl: string;
  /** The reply as plain text (its HTML's text). */
  body: string;
}

const remoteBody = (text: string) => text.trim().slice(0, 5000) || "…";
const remoteName = (name: string) => name.trim().slice(0, 50) || "Someone";

/** A remote author's hold rule: their first reply waits; after that the link and word rules, as a reader's. */
async function remoteHold(db: SqlQueryable, actorId: string, body: string): Promise<string | null> {
  const { rows } = await db.query<{ has_approved: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM comments WHERE fediverse_actor_id = $1 AND status = 'approved') AS has_approved",
    [actorId],
  );
  return holdReason({ comments_always_hold: false, has_approved: rows[0]?.has_approved ?? false }, body, await commentSettings(db));
}

/**
 * Stores a fediverse reply as a comment under a published post whose comments are open, held or
 * approved by the readers' rules; one Note stores one comment. Answers undefined when the post
 * takes no comments (a draft, closed, the feature off) or the Note came before.
 */
export async function createRemoteComment(
  deps: Pick<CommentsDeps, "db" | "now">,
  reply: RemoteReply,
): Promise<{ id: number; status: "held" | "approved" } | undefined> {
  const { rows: posts } = await deps.db.query<{ comments_closed: boolean }>("SELECT comments_closed FROM posts WHERE id = $1 AND published", [
    reply.postId,
  ]);
  const settings = await commentSettings(deps.db);
  if (!posts[0] || posts[0].comments_closed || !settings.enabled) return undefined;
  const body = remoteBody(reply.body);
  const hold = await remoteHold(deps.db, reply.actorId, body);
  const status = hold ? "held" : "approved";
  const now = deps.now();
  const { rows } = await deps.db.query<{ id: number }>(
    `INSERT INTO comments (post_id, is_owner, author_name, body, html, status, hold_reason, created_at, moderated_at,
                           author_handle, author_url, author_avatar, original_url, fediverse_object_id, fediverse_actor_id)
     VALUES ($1, false, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (fediverse_object_id) DO NOTHING RETURNING id`,
    [
      reply.postId,
      remoteName(reply.name),
      body,
      renderCommentHtml(body),
      status,
      hold,
      now,
      hold ? null : now,
      reply.handle,
      reply.url,
      reply.avatar,
      reply.originalUrl,
      reply.objectId,
      reply.actorId,
    ],
  );
  return rows[0] ? { id: rows[0].id, status } : undefined;
}

/** An `Update` of a fediverse reply, by its own author only: the new text, through the hold rules again. */
export async function updateRemoteComment(deps: Pick<CommentsDeps, "db" | "now">, objectId: string, actorId: string, text: string): Promise<boolean> {
  const body = remoteBody(text);
  const hold = await remoteHold(deps.db, actorId, body);
  const { rows } = await deps.db.query<{ id: number }>(
    `UPDATE comments SET body = $3, html = $4, edited_at = $5,
            status = CASE WHEN $6::text IS NOT NULL AND status = 'approved' THEN 'held' ELSE status END,
            hold_reason = coalesce($6::text, hold_reason)
      WHERE fediverse_object_id = $1 AND fediverse_actor_id = $2 RETURNING id`,
    [objectId, actorId, body, renderCommentHtml(body), deps.now(), hold],
  );
  return rows.length > 0;
}

/** A `Delete` of a fediverse reply, by its own author only. */
export async function deleteRemoteComment(db: SqlQueryable, objectId: string, actorId: string): Promise<boolean> {
  const { rows } = await db.query<{ id: number }>("DELETE FROM comments WHERE fediverse_object_id = $1 AND fediverse_actor_id = $2 RETURNING id", [
    objectId,
    actorId,
  ]);
  return rows.length > 0;
}
