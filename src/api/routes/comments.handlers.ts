import type { AppDeps } from "../../app/app-deps.ts";
import { stopCommentNotices, queueReplyNotices, verifyCommentNoticesToken } from "../../core/comments/comment-notices.ts";
import { commentsPagePath, type CommentNotice } from "../../core/comments/comment.schema.ts";
import {
  commentCountsForCards,
  countHeldComments,
  createComment,
  deleteComment,
  editComment,
  listCommentQueue,
  listPostComments,
  moderateComments,
  publishedPostSlug,
  setReaderStanding,
  type CommentAuthor,
} from "../../core/comments/comments.service.ts";
import { AppError, DatabaseUnavailableError, ForbiddenError, RateLimitedError, UnauthorizedError } from "../../core/errors.ts";
import { startDelivery } from "../../core/mail/outbox.ts";
import { findReaderSession } from "../../core/readers/reader-sessions.ts";
import { isFormPost } from "../forms.ts";
import { json } from "../http.ts";
import type { HandlerContext, RouteHandlers } from "../route-handler.ts";
import { readReaderToken } from "../session-cookie.ts";
import { siteTemplates } from "../site-pages.ts";
import { renderPage } from "../subscription-pages.ts";
import type { commentsRoutes } from "./comments.routes.ts";

/**
 * Who writes or changes a comment: the owner's admin session (writing as the author) first, else
 * the reader of the reader cookie, else nobody. An API key is neither: comments are people's.
 */
async function commentAuthor(context: Pick<HandlerContext<never>, "deps" | "request" | "session">): Promise<CommentAuthor | null> {
  if (await context.session()) return { kind: "owner" };
  const reader = await findReaderSession(context.deps, readReaderToken(context.request));
  return reader ? { kind: "reader", subscriberId: reader.subscriberId } : null;
}

/** The notice a refused no-JavaScript comment lands with. */
function noticeFor(error: unknown): CommentNotice | undefined {
  if (error instanceof UnauthorizedError) return "signed-out";
  if (error instanceof RateLimitedError) return "too-many";
  if (error instanceof DatabaseUnavailableError) return "try-later";
  if (error instanceof ForbiddenError) return error.message.includes("closed") || error.message.includes("switched off") ? "closed" : "banned";
  if (error instanceof AppError && error.status === 400) return "invalid";
  return undefined;
}

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });

/** The reply notices of comments just approved, queued in their transaction, delivered after the answer. */
const replyNotices = (deps: AppDeps) => async (tx: Parameters<typeof queueReplyNotices>[0], ids: number | number[]) => {
  await queueReplyNotices(tx, deps, Array.isArray(ids) ? ids : [ids]);
};

const noticesPage = (request: Request, heading: string, text: string, button?: string) =>
  renderPage(
    { status: 200, heading, text, ...(button && { button: { label: button } }), links: [{ href: "/blog", label: "Read the blog" }] },
    new URL(request.url).pathname + new URL(request.url).search,
    siteTemplates(request, 3_000),
  );

export const commentsHandlers: RouteHandlers<typeof commentsRoutes> = {
  list: async (context) => {
    const { deps, params, query, request } = context;
    const author = await commentAuthor(context);
    const list = await listPostComments(deps, params.id, author ?? { kind: "visitor" }, query);
    // Approved comments show within seconds without a rebuild (decision 0082): the CDN keeps an
    // anonymous answer 5 s at most; an answer with a reader's own comments is kept by nobody.
    const personal = author !== null || readReaderToken(request) !== undefined;
    return json(list, {
      headers: {
        "cache-control": personal ? "private, no-store" : "public, max-age=0, s-maxage=5",
        vary: "Cookie",
      },
    });
  },
  create: async (context) => {
    const { deps, params, body, request, clientIp } = context;
    const form = isFormPost(request);
    try {
      const written = await createComment(
        deps,
        { postId: params.id, author: await commentAuthor(context), comment: body, clientIp },
        replyNotices(deps),
      );
      if (written.stored && written.status === "approved") startDelivery(deps);
      if (form) return seeOther(`${commentsPagePath(written.slug, written.status)}#comments`);
      return json({ id: written.id, status: written.status }, { status: 201, headers: { "cache-control": "no-store" } });
    } catch (error) {
      const notice = form ? noticeFor(error) : undefined;
      const slug = notice ? await publishedPostSlug(deps.db, params.id).catch(() => undefined) : undefined;
      if (notice && slug) return seeOther(`${commentsPagePath(slug, notice)}#comment-form`);
      throw error;
    }
  },
  queue: async ({ deps, query }) => listCommentQueue(deps, query),
  count: async ({ deps }) => ({ held: await countHeldComments(deps.db) }),
  // The same for everyone: the CDN keeps it 5 s at most, as the thread's anonymous answer (decision 0082).
  counts: async ({ deps, query }) =>
    json(await commentCountsForCards(deps.db, query.posts), { headers: { "cache-control": "public, max-age=0, s-maxage=5" } }),
  moderate: async ({ deps, body }) => {
    const changed = await moderateComments(deps, body, replyNotices(deps));
    if (body.action === "approve" && changed > 0) startDelivery(deps);
    return { changed };
  },
  noticesUnsubscribePage: async ({ deps, query, request }) =>
    query.token && verifyCommentNoticesToken(deps.signer, query.token) !== undefined
      ? noticesPage(
          request,
          "Stop reply emails?",
          "You get an email when someone replies to your comment. Press the button to stop those emails (nothing else changes).",
          "Stop reply emails",
        )
      : noticesPage(request, "This link is not valid", "Check that the whole link from the email was opened."),
  noticesUnsubscribe: async ({ deps, query, request }) =>
    query.token && (await stopCommentNotices(deps, query.token))
      ? noticesPage(request, "Reply emails stopped", "You won't get an email when someone replies to your comments. Everything else stays as it was.")
      : noticesPage(request, "This link is not valid", "Check that the whole link from the email was opened."),
  edit: async (context) =>
    json(await editComment(context.deps, context.params.id, await commentAuthor(context), context.body.body), {
      headers: { "cache-control": "no-store" },
    }),
  remove: async (context) => {
    await deleteComment(context.deps, context.params.id, await commentAuthor(context));
    return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
  },
  ban: async ({ deps, params }) => setReaderStanding(deps, params.id, "ban"),
  unban: async ({ deps, params }) => setReaderStanding(deps, params.id, "unban"),
  hold: async ({ deps, params }) => setReaderStanding(deps, params.id, "hold"),
  unhold: async ({ deps, params }) => setReaderStanding(deps, params.id, "unhold"),
};
