/**
 * `/blog/{slug}/comments/`: a post's comments without JavaScript (issue 44 point 6), rendered on
 * demand (Netlify: the `comments-page` function; `npm start`: the local server calls the same
 * function). The post page's `<noscript>` link leads here and the comment form's 303s land here
 * with `?notice=`. It shows what the island shows — the approved comments, the signed-in reader's
 * own held ones marked "Awaiting approval", one level of replies, `id="comment-{id}"` — and a plain
 * form that posts to `POST /api/posts/{id}/comments`. The site's message page is its shell (as the
 * preference page's); no script, never cached or indexed.
 */
import type { AppDeps } from "../app/app-deps.ts";
import { findSession } from "../core/auth/sessions.ts";
import {
  commentMaxLength,
  commentNoticeMessages,
  commentNotices,
  commentsClosedMessage,
  commentsOffMessage,
  commentsPagePath,
  honeypotField,
  type CommentNotice,
  type PublicComment,
} from "../core/comments/comment.schema.ts";
import { listPostComments, publishedPostBySlug, type CommentViewer } from "../core/comments/comments.service.ts";
import { findReaderSession } from "../core/readers/reader-sessions.ts";
import { escapeHtml as escape } from "../core/shared/escape-html.ts";
import { apiPaths } from "./api-paths.ts";
import { readReaderToken, readSessionToken } from "./session-cookie.ts";
import { formPageStyles } from "./form-page-styles.ts";
import { withSiteHeaders, type LoadTemplate } from "./site-pages.ts";
import { renderPage } from "./subscription-pages.ts";

/** The path pattern of the page (the function's `config.path`). */
export const commentsPagePattern = /^\/blog\/([^/]+)\/comments\/?$/;

/** The post slug of a comments page's path, or undefined when the path is not one. */
export function commentsPageSlug(pathname: string): string | undefined {
  const match = commentsPagePattern.exec(pathname);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

// The shared form rules (form-page-styles.ts), and the thread's own: cards, one level of replies, the reply forms.
const styles = formPageStyles(
  "nf-comments",
  { maxWidth: "44rem" },
  `.nf-comments ol{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:1.5rem}
.nf-comments ol ol{margin:1rem 0 0 1rem;padding-left:1rem;border-left:3px solid #0a0a0a;gap:1rem}
.nf-comments article{border:3px solid #0a0a0a;box-shadow:4px 4px 0 #0a0a0a;background:#fff;color:#0a0a0a;padding:1rem}
.nf-comments header{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:baseline;font-size:.9rem}
.nf-comments header strong{font-size:1rem}
.nf-comments .nf-badge{border:2px solid #0a0a0a;padding:0 .4rem;font-weight:600;background:#fafaf7}
.nf-comments .nf-author{background:#b91c1c;color:#fafaf7}
.nf-comments .nf-body{margin-top:.5rem;overflow-wrap:anywhere}
.nf-comments .nf-body p{margin:0 0 .75rem}
.nf-comments .nf-body a{color:#b91c1c;text-decoration:underline}
.nf-comments .nf-note{margin:0 0 1.5rem}
.nf-comments .nf-post{font-weight:700;text-decoration:underline}
.nf-comments form{margin:2rem 0 0;display:flex;flex-direction:column;gap:.75rem}
.nf-comments label{font-weight:600}
.nf-comments textarea{width:100%;border:3px solid #0a0a0a;background:#fff;color:#0a0a0a;padding:.75rem 1rem;font:inherit}
.nf-comments details{margin-top:.75rem}
.nf-comments details form{margin-top:.5rem}
.nf-comments .nf-trap{position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden}
`,
);

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** One comment, as the island's `<template>` lays it out (its `html` is the server's rendering of plain text). */
function commentHtml(comment: PublicComment, replies: string, replyForm: string): string {
  const badges = [
    comment.author.isOwner ? `<span class="nf-badge nf-author">Author</span>` : "",
    // A reply from the fediverse (issue 45): its author's user@server, linked to the original.
    comment.author.handle && /^https?:\/\//.test(comment.originalUrl ?? "")
      ? `<a href="${escape(comment.originalUrl ?? "")}" rel="nofollow ugc noopener">@${escape(comment.author.handle)}</a>`
      : "",
    `<time datetime="${escape(comment.createdAt)}">${escape(dateFormat.format(new Date(comment.createdAt)))} UTC</time>`,
    comment.editedAt ? "<span>(edited)</span>" : "",
    comment.status === "held" ? `<span class="nf-badge">Awaiting approval</span>` : "",
  ].join("");
  return `<li id="comment-${String(comment.id)}"><article><header><strong>${escape(comment.author.name)}</strong>${badges}</header><div class="nf-body">${comment.html}</div>${replyForm}</article>${replies}</li>`;
}

/** The form: a textarea `body`, the hidden honeypot, and `parentId` on a reply. */
function formHtml(action: string, options: { parentId?: number; id: string; label: string; button: string }): string {
  const parent = options.parentId === undefined ? "" : `<input type="hidden" name="parentId" value="${String(options.parentId)}">`;
  return `<form method="post" action="${escape(action)}"${options.parentId === undefined ? ' id="comment-form"' : ""}>${parent}<label for="${options.id}">${escape(options.label)}</label><textarea id="${options.id}" name="body" rows="${options.parentId === undefined ? "6" : "4"}" maxlength="${String(commentMaxLength)}" required></textarea><div class="nf-trap" aria-hidden="true"><label for="${options.id}-website">Leave this empty</label><input id="${options.id}-website" name="${honeypotField}" tabindex="-1" autocomplete="off"></div><button type="submit" class="btn justify-center">${escape(options.button)}</button></form>`;
}

/** Who reads: the owner's admin session (who writes as the author), else the reader of the reader cookie. */
async function viewerOf(deps: AppDeps, request: Request): Promise<CommentViewer> {
  if (await findSession(deps, readSessionToken(request))) return { kind: "owner" };
  const reader = await findReaderSession(deps, readReaderToken(request));
  return reader ? { kind: "reader", subscriberId: reader.subscriberId } : { kind: "visitor" };
}

const notFound = (loadTemplate: LoadTemplate) =>
  renderPage(
    {
      status: 404,
      heading: "Post not found",
      text: "There is no published post at this address, so there are no comments to show.",
      links: [{ href: "/blog", label: "Read the blog" }],
    },
    "/blog",
    loadTemplate,
  );

/** The answer to a request for `/blog/{slug}/comments/`, with the headers the built pages get. */
export async function answerCommentsPage(deps: AppDeps, request: Request, loadTemplate: LoadTemplate): Promise<Response> {
  return withSiteHeaders(request, await commentsPageAnswer(deps, request, loadTemplate));
}

async function commentsPageAnswer(deps: AppDeps, request: Request, loadTemplate: LoadTemplate): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response("Method not allowed", { status: 405, headers: { allow: "GET, HEAD", "cache-control": "no-store" } });
  }
  const url = new URL(request.url);
  const slug = commentsPageSlug(url.pathname);
  const post = slug === undefined ? undefined : await publishedPostBySlug(deps.db, slug);
  if (!post) return notFound(loadTemplate);
  const pageParam = url.searchParams.get("page") ?? "1";
  const page = /^[1-9]\d{0,5}$/.test(pageParam) ? Number(pageParam) : 1;
  const viewer = await viewerOf(deps, request);
  const list = await listPostComments(deps, post.id, viewer, { page });
  const noticeParam = url.searchParams.get("notice");
  const notice = commentNotices.includes(noticeParam as CommentNotice) ? (noticeParam as CommentNotice) : undefined;
  const postPath = `/blog/${encodeURIComponent(post.slug)}/`;
  const pagePath = commentsPagePath(post.slug);
  const action = apiPaths.postComments.replace(":id", String(post.id));
  const canWrite = list.enabled && list.open && viewer.kind !== "visitor";

  const tops = list.comments.filter((comment) => comment.parentId === null);
  const repliesOf = (id: number) => list.comments.filter((comment) => comment.parentId === id);
  const thread = tops
    .map((top) => {
      const replies = repliesOf(top.id).map((reply) => commentHtml(reply, "", ""));
      // One level of replies: a reply form under each shown top-level comment (never a held one).
      const replyForm =
        canWrite && top.status !== "held"
          ? `<details><summary>Reply to ${escape(top.author.name)}</summary>${formHtml(action, { parentId: top.id, id: `reply-${String(top.id)}`, label: `Your reply to ${top.author.name}`, button: "Post reply" })}</details>`
          : "";
      return commentHtml(top, replies.length > 0 ? `<ol>${replies.join("")}</ol>` : "", replyForm);
    })
    .join("");

  const parts: string[] = [styles, `<div class="nf-comments" id="comments">`];
  parts.push(`<p>On <a class="nf-post" href="${escape(postPath)}">${escape(post.title)}</a></p>`);
  if (notice) parts.push(`<p class="nf-note" role="status">${escape(commentNoticeMessages[notice])}</p>`);
  if (!list.enabled) {
    parts.push(`<p class="nf-note">${escape(commentsOffMessage)}</p>`);
  } else {
    parts.push(`<p><strong>${list.total === 1 ? "1 comment" : `${String(list.total)} comments`}</strong></p>`);
    if (thread) parts.push(`<ol>${thread}</ol>`);
    if (list.pages > 1) {
      const pageLink = (n: number, label: string) => `<a class="btn btn-light" href="${escape(`${pagePath}?page=${String(n)}`)}">${label}</a>`;
      parts.push(
        `<nav aria-label="Pages of comments" class="flex flex-wrap gap-3" style="margin-top:1.5rem">${page > 1 ? pageLink(page - 1, "Earlier comments") : ""}${page < list.pages ? pageLink(page + 1, "More comments") : ""}</nav>`,
      );
    }
    if (!list.open) parts.push(`<p class="nf-note" style="margin-top:1.5rem">${escape(commentsClosedMessage)}</p>`);
    else if (canWrite)
      parts.push(
        formHtml(action, {
          id: "comment-body",
          label: viewer.kind === "owner" ? "Your comment (as the author)" : "Your comment",
          button: "Post comment",
        }),
      );
    else
      parts.push(
        `<p style="margin-top:2rem"><a class="btn" href="${escape(`/account?return=${encodeURIComponent(`${pagePath}#comment-form`)}`)}">Sign in to comment</a></p>`,
      );
  }
  parts.push("</div>");

  return renderPage(
    {
      status: 200,
      heading: "Comments",
      text: `What readers say about “${post.title}”.`,
      bodyHtml: parts.join(""),
      links: [{ href: postPath, label: "Back to the post" }],
    },
    pagePath,
    loadTemplate,
  );
}
