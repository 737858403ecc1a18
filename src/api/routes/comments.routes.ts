import { z } from "zod";
import {
  commentCountSchema,
  commentCountsQuerySchema,
  commentCountsSchema,
  commentCreatedSchema,
  commentCreateSchema,
  commentEditedSchema,
  commentFormFailurePath,
  commentGoneMessage,
  commentListQuerySchema,
  commentListSchema,
  commentModeratedSchema,
  commentModerateSchema,
  commentQueueQuerySchema,
  commentQueueSchema,
  commentUpdateSchema,
  readerStandingSchema,
} from "../../core/comments/comment.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, fileAnswer, jsonAnswer } from "../declare-route.ts";
import { rowIdParams } from "../params.schema.ts";

const postParams = rowIdParams("Post not found");
const commentParams = rowIdParams(commentGoneMessage);
const readerParams = rowIdParams("Reader not found");
const standing = jsonAnswer(readerStandingSchema, "The reader's standing now");
const tokenQuery = z.object({ token: z.string().max(512).optional() });

/**
 * Comments (issue 44 points 3–5, decision 0082). The thread is read from the function, never from
 * the built site: an approval shows within seconds and needs no rebuild.
 */
export const commentsRoutes = {
  list: declareRoute({
    method: "GET",
    path: apiPaths.postComments,
    access: "public",
    summary:
      "A published post's comments: approved ones of readers who are not banned, plus the signed-in reader's own that wait (`status: held`) and `mine` on theirs; a page holds 50 top-level comments (oldest first, or `order=newest`), each followed by its replies. Cached by the CDN for 5 s without a reader cookie, never with one",
    params: postParams,
    query: commentListQuerySchema,
    answers: { 200: jsonAnswer(commentListSchema, "The thread") },
  }),
  create: declareRoute({
    method: "POST",
    path: apiPaths.postComments,
    access: "public",
    summary:
      "Writes a comment as the signed-in reader (held or approved by the rules), or as the author with the owner's session (approved). Also the no-JavaScript form: a urlencoded post answered 303 to the comments page with `?notice=`. A filled honeypot (`website`) is answered as held and stores nothing",
    params: postParams,
    body: { type: "json", schema: commentCreateSchema, form: { success: "/", failure: commentFormFailurePath } },
    answers: { 201: jsonAnswer(commentCreatedSchema, "Written: approved (shown now) or held (waiting for approval)") },
    errors: [401, 403, 429],
  }),
  queue: declareRoute({
    method: "GET",
    path: apiPaths.comments,
    access: "admin",
    scope: "content:read",
    summary:
      "The owner's moderation queue, newest first, 50 a page: by status (held, approved, hidden, spam) and text (`q`: body, author, email, post title), with post and author; `held` counts what waits",
    query: commentQueueQuerySchema,
    answers: { 200: jsonAnswer(commentQueueSchema, "A page of the queue") },
  }),
  count: declareRoute({
    method: "GET",
    path: apiPaths.commentsCount,
    access: "admin",
    scope: "content:read",
    summary: "How many comments wait for approval (the dashboard tab's badge)",
    answers: { 200: jsonAnswer(commentCountSchema, "The count") },
  }),
  counts: declareRoute({
    method: "GET",
    path: apiPaths.commentCounts,
    access: "public",
    shared: true,
    summary:
      "The public comment count of each post named (the post cards' counts, refreshed by the list pages so an approval shows without a rebuild); 0 for a draft or an unknown id. Cached by the CDN for 5 s",
    query: commentCountsQuerySchema,
    answers: { 200: jsonAnswer(commentCountsSchema, "The counts, in the order asked") },
  }),
  moderate: declareRoute({
    method: "POST",
    path: apiPaths.commentsModerate,
    access: "admin",
    scope: "content:write",
    summary: "Approves, hides, marks as spam or deletes up to 200 comments at once; approving a reply emails the reader it answers",
    body: { type: "json", schema: commentModerateSchema },
    answers: { 200: jsonAnswer(commentModeratedSchema, "How many changed") },
  }),
  noticesUnsubscribePage: declareRoute({
    method: "GET",
    path: apiPaths.commentNoticesUnsubscribe,
    access: "public",
    summary: "The page a reply email's unsubscribe link opens: a button that stops reply emails. Changes nothing",
    query: tokenQuery,
    answers: { 200: fileAnswer("text/html", "The page") },
    errors: [404],
  }),
  noticesUnsubscribe: declareRoute({
    method: "POST",
    path: apiPaths.commentNoticesUnsubscribe,
    access: "public",
    // RFC 8058: a mail provider posts `List-Unsubscribe=One-Click` with no cookie and no Origin.
    crossSite: "token",
    summary: "Stops the reader's reply emails at once: the page's button, or a mail provider's one-click POST (RFC 8058)",
    query: tokenQuery,
    answers: { 200: fileAnswer("text/html", "A short page saying so") },
    errors: [404],
  }),
  edit: declareRoute({
    method: "PUT",
    path: apiPaths.comment,
    access: "public",
    summary:
      "Changes a comment's text: its reader within 15 minutes of writing it, or the owner any time. A reader's edit goes through the hold rules again",
    params: commentParams,
    body: { type: "json", schema: commentUpdateSchema },
    answers: { 200: jsonAnswer(commentEditedSchema, "The comment now") },
    errors: [401, 403],
  }),
  remove: declareRoute({
    method: "DELETE",
    path: apiPaths.comment,
    access: "public",
    summary: "Deletes a comment and its replies: its reader within 15 minutes of writing it, or the owner any time",
    params: commentParams,
    answers: { 204: emptyAnswer("Deleted") },
    errors: [401, 403],
  }),
  ban: declareRoute({
    method: "POST",
    path: apiPaths.readerBan,
    access: "admin",
    scope: "subscribers:write",
    summary: "Bans a reader from commenting: they can't post (403) and their comments leave every public answer",
    params: readerParams,
    answers: { 200: standing },
  }),
  unban: declareRoute({
    method: "POST",
    path: apiPaths.readerUnban,
    access: "admin",
    scope: "subscribers:write",
    summary: "Lifts a reader's ban: their approved comments show again",
    params: readerParams,
    answers: { 200: standing },
  }),
  hold: declareRoute({
    method: "POST",
    path: apiPaths.readerHold,
    access: "admin",
    scope: "subscribers:write",
    summary: "Marks a reader always hold: each of their comments waits for approval",
    params: readerParams,
    answers: { 200: standing },
  }),
  unhold: declareRoute({
    method: "POST",
    path: apiPaths.readerUnhold,
    access: "admin",
    scope: "subscribers:write",
    summary: "Takes off a reader's always-hold mark",
    params: readerParams,
    answers: { 200: standing },
  }),
};
