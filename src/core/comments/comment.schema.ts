import { z } from "zod";

/**
 * Comments (issue 44 points 3–5, decision 0082): one schema per idea, shared by the comment form,
 * the dashboard's queue and the server.
 */

/** The longest comment, in characters (after trimming). */
export const commentMaxLength = 5000;
/** A reader edits or deletes their own comment within this time of writing it. */
export const commentEditWindowMs = 15 * 60 * 1000;
/** Top-level comments (each with its replies) on one page of a post's thread. */
export const commentThreadsPerPage = 50;
/** Comments on one page of the dashboard's queue. */
export const commentQueuePageSize = 50;
/** The most comments one moderation call acts on. */
export const maxModerateIds = 200;

export const commentStatuses = ["held", "approved", "hidden", "spam"] as const;
export type CommentStatus = (typeof commentStatuses)[number];

export const commentOrders = ["oldest", "newest"] as const;
export type CommentOrder = (typeof commentOrders)[number];

export const moderationActions = ["approve", "hide", "delete", "spam"] as const;
export type ModerationAction = (typeof moderationActions)[number];

export const commentTooLongMessage = `A comment can be at most ${commentMaxLength.toLocaleString("en-US")} characters.`;
export const commentEmptyMessage = "Write something first.";

/**
 * A comment's text: plain text, never HTML (it is escaped when rendered). Line endings become
 * `\n`, the ends are trimmed; 1–5,000 characters.
 */
export const commentBodySchema = z
  .string({ error: commentEmptyMessage })
  .transform((body) => body.normalize("NFC").replace(/\r\n?/g, "\n").trim())
  .pipe(z.string().min(1, commentEmptyMessage).max(commentMaxLength, commentTooLongMessage));

/** An optional row id as JSON sends it (a number) or a form does (text; empty is none). */
const optionalId = (message: string) =>
  z.preprocess(
    (value) => (value === "" || value === null ? undefined : typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : value),
    z.number({ error: message }).int(message).positive(message).max(2_147_483_647, message).optional(),
  );

/**
 * The honeypot: a field people never see (hidden from view and from assistive technology, out of
 * the tab order). A script that fills it is answered as if its comment went in, and nothing is stored.
 */
export const honeypotField = "website";

/** `POST /api/posts/{id}/comments`: the comment form (JSON from the island, urlencoded without JavaScript). */
export const commentCreateSchema = z.object(
  {
    body: commentBodySchema,
    /** The comment replied to; a reply to a reply attaches to the top-level comment. */
    parentId: optionalId("parentId must be a comment id"),
    [honeypotField]: z.string().max(500).optional(),
  },
  { error: "Send the comment's body." },
);
export type CommentCreate = z.output<typeof commentCreateSchema>;

/** `PUT /api/comments/{id}`: the new text. */
export const commentUpdateSchema = z.object({ body: commentBodySchema }, { error: "Send the comment's body." });

/** `GET /api/posts/{id}/comments?page=&order=`. */
export const commentListQuerySchema = z.object({
  page: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, "page must be a whole number from 1")
    .transform(Number)
    .optional()
    .meta({ description: "Which page of top-level comments (each with its replies), from 1 (default 1)" }),
  order: z
    .enum(commentOrders, { error: "order must be newest or oldest" })
    .optional()
    .meta({ description: "Top-level comments oldest first (default) or newest first; replies are always oldest first under their comment" }),
});

/**
 * One comment as a public answer gives it: the author's name and whether they are the owner; a reply
 * from the fediverse (issue 45) also the author's handle, profile and avatar, and the original's address.
 */
export const publicCommentSchema = z.object({
  id: z.number().int(),
  /** The top-level comment this one replies to, or null. */
  parentId: z.number().int().nullable(),
  author: z.object({
    name: z.string(),
    isOwner: z.boolean(),
    handle: z.string().optional().meta({ description: "A fediverse author's `user@server` (only on replies from the fediverse)" }),
    url: z.string().optional().meta({ description: "A fediverse author's profile page" }),
    avatar: z.string().nullable().optional().meta({ description: "A fediverse author's avatar, or null when they have none" }),
  }),
  originalUrl: z.string().optional().meta({ description: "A reply from the fediverse: the original post on its server" }),
  /** Made by the server from the plain text: escaped, links `rel="nofollow ugc noopener"`, paragraphs. */
  html: z.string(),
  createdAt: z.iso.datetime(),
  editedAt: z.iso.datetime().nullable(),
  /** Only on the signed-in reader's own comment that waits: "held" (shown to them as "awaiting approval"). */
  status: z.literal("held").optional(),
  /** Only on the signed-in reader's own comments (and every comment for the owner). */
  mine: z.literal(true).optional(),
  /** With `mine`: until when its author may still edit or delete it (15 minutes from writing; absent for the owner, who always may). */
  editableUntil: z.iso.datetime().optional(),
});
export type PublicComment = z.output<typeof publicCommentSchema>;

/** `GET /api/posts/{id}/comments`. */
export const commentListSchema = z.object({
  comments: z.array(publicCommentSchema),
  /** Every comment of the post the caller may see (replies included). */
  total: z.number().int(),
  page: z.number().int(),
  /** Pages of top-level comments (at least 1). */
  pages: z.number().int(),
  /** Whether a new comment may be written: the feature on and the post's comments not closed. */
  open: z.boolean(),
  /** Whether comments are switched on in Site Settings (off: no comments, the region says nothing). */
  enabled: z.boolean(),
  /** Who asks: a signed-in reader, the owner (admin session; writes as the author), or nobody signed in. */
  viewer: z.enum(["reader", "owner"]).nullable(),
});
export type CommentList = z.output<typeof commentListSchema>;

/** `POST /api/posts/{id}/comments`: 201. */
export const commentCreatedSchema = z.object({
  id: z.number().int(),
  status: z.enum(["approved", "held"]),
});
export type CommentCreated = z.output<typeof commentCreatedSchema>;

/** `GET /api/comments?status=&q=&page=` (admin). */
export const commentQueueQuerySchema = z.object({
  status: z.enum(commentStatuses, { error: `status must be one of: ${commentStatuses.join(", ")}` }).optional(),
  q: z.string().trim().max(200, "q can be at most 200 characters").optional(),
  page: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, "page must be a whole number from 1")
    .transform(Number)
    .optional(),
});
export type CommentQueueQuery = z.output<typeof commentQueueQuerySchema>;

/** The most posts one `GET /api/comments/counts` names: a list page's cards (20) with room to spare. */
export const commentCountsMaxPosts = 50;

/** `GET /api/comments/counts?posts=1,2,3`: the posts whose cards a page shows. */
export const commentCountsQuerySchema = z.object({
  posts: z
    .string({ error: "posts is required: post ids separated by commas" })
    .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9})*$/, "posts must be post ids separated by commas")
    .transform((ids) => [...new Set(ids.split(",").map(Number))])
    // Within Postgres `integer`: an id past it names no post and must not reach the query (a 500 there).
    .pipe(
      z
        .array(z.number().int().max(2_147_483_647, "posts must be post ids separated by commas"))
        .max(commentCountsMaxPosts, `posts can name at most ${String(commentCountsMaxPosts)} posts`),
    )
    .meta({ description: `Post ids separated by commas, at most ${String(commentCountsMaxPosts)}` }),
});

/** The public comment count of each post asked for (a draft or unknown id answers 0); `enabled: false` when comments are switched off. */
export const commentCountsSchema = z.object({
  enabled: z.boolean(),
  counts: z.array(z.object({ id: z.number().int(), comments: z.number().int() })),
});
export type CommentCounts = z.output<typeof commentCountsSchema>;

/** `GET /api/readers/me/comments`: the reader's own comments that are shown or waiting, newest first (their page's list). */
export const readerCommentsSchema = z.object({
  comments: z.array(
    z.object({
      id: z.number().int(),
      post: z.object({ slug: z.string(), title: z.string() }),
      /** The plain text as written (the page sets it as text, never as HTML). */
      body: z.string(),
      status: z.enum(["approved", "held"]),
      createdAt: z.iso.datetime(),
    }),
  ),
});
export type ReaderComments = z.output<typeof readerCommentsSchema>;

/** One comment as the owner's queue shows it. */
export const queuedCommentSchema = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  post: z.object({ id: z.number().int(), title: z.string(), slug: z.string() }),
  author: z.object({
    name: z.string(),
    isOwner: z.boolean(),
    /** The reader (a subscriber's id) for ban and hold; null for the owner and an erased reader. */
    readerId: z.number().int().nullable(),
    email: z.string().nullable(),
    banned: z.boolean(),
    alwaysHold: z.boolean(),
  }),
  body: z.string(),
  html: z.string(),
  status: z.enum(commentStatuses),
  /** Why it waits, when a rule held it. */
  holdReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  editedAt: z.iso.datetime().nullable(),
});
export type QueuedComment = z.output<typeof queuedCommentSchema>;

/** `GET /api/comments`. */
export const commentQueueSchema = z.object({
  comments: z.array(queuedCommentSchema),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
  /** Comments waiting for approval, whatever the filter (the tab's badge). */
  held: z.number().int(),
});
export type CommentQueue = z.output<typeof commentQueueSchema>;

/** `GET /api/comments/count`: the tab's badge. */
export const commentCountSchema = z.object({ held: z.number().int() });

/** `POST /api/comments/moderate`. */
export const commentModerateSchema = z.object({
  ids: z
    .array(z.number().int().positive(), { error: "ids must be a list of comment ids" })
    .min(1, "Choose at least one comment.")
    .max(maxModerateIds, `At most ${String(maxModerateIds)} comments at once.`),
  action: z.enum(moderationActions, { error: `action must be one of: ${moderationActions.join(", ")}` }),
});
export type CommentModerate = z.output<typeof commentModerateSchema>;

/** `POST /api/comments/moderate`: how many comments changed. */
export const commentModeratedSchema = z.object({ changed: z.number().int() });

/** The owner's standing about a reader: after ban, unban, hold, unhold. */
export const readerStandingSchema = z.object({
  id: z.number().int(),
  banned: z.boolean(),
  alwaysHold: z.boolean(),
});
export type ReaderStanding = z.output<typeof readerStandingSchema>;

/** `PUT /api/comments/{id}`: the comment as it now is. */
export const commentEditedSchema = z.object({
  id: z.number().int(),
  html: z.string(),
  editedAt: z.iso.datetime(),
  status: z.enum(commentStatuses),
});

/**
 * The server-rendered comments page of a post (no JavaScript needed to read or write), read by
 * the API's redirects and by the page. `notice` says what the last form post did.
 */
export function commentsPagePath(slug: string, notice?: CommentNotice): string {
  const path = `/blog/${encodeURIComponent(slug)}/comments/`;
  return notice ? `${path}?${new URLSearchParams({ notice }).toString()}` : path;
}

/**
 * What a no-JavaScript comment form post did, as `?notice=` on the comments page: posted and shown,
 * posted and waiting, or refused (each with its words in `commentNoticeMessages`).
 */
export const commentNotices = ["approved", "held", "signed-out", "closed", "banned", "too-many", "invalid", "try-later"] as const;
export type CommentNotice = (typeof commentNotices)[number];

export const commentsClosedMessage = "Comments are closed on this post.";
export const commentsOffMessage = "Comments are switched off on this site.";
export const bannedMessage = "You can't comment on this site any more. If you think this is a mistake, write to the site's owner.";
export const commentSignedOutMessage = "Sign in with your email to comment.";
export const commentTooManyMessage = "You're commenting very fast. Wait a few minutes, then try again.";
export const editWindowMessage = "A comment can be changed or deleted only in the first 15 minutes after writing it.";
export const commentGoneMessage = "Comment not found";

export const commentNoticeMessages: Record<CommentNotice, string> = {
  approved: "Thanks! Your comment is up.",
  held: "Thanks! Your comment is awaiting approval: it shows here once the author approves it.",
  "signed-out": commentSignedOutMessage,
  closed: commentsClosedMessage,
  banned: bannedMessage,
  "too-many": commentTooManyMessage,
  invalid: "That comment couldn't be posted: it must be 1 to 5,000 characters of plain text. Please try again.",
  "try-later": "Comments can't be posted right now. Please try again in a minute.",
};

/**
 * Where a no-JavaScript form post lands when it fails before its post is known (a body the schema
 * refuses): the comment form's failure page (`…/try-later/` beside it for a 503).
 */
export const commentFormFailurePath = "/comment-failed/";
