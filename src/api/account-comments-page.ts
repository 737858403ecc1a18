/**
 * `/account/comments/`: the signed-in reader's own comments without JavaScript (issue 44 point 2),
 * rendered on demand (Netlify: the `account-comments-page` function; `npm start`: the local server
 * calls the same function). `/account`'s script is at its byte budget, so `/account` links here with
 * a plain `<a>`. The list is `GET /api/readers/me/comments`'s (`listReaderComments`): newest first,
 * held ones marked "Awaiting approval". The site's message page is its shell; no script, never cached.
 */
import type { AppDeps } from "../app/app-deps.ts";
import type { ReaderComments } from "../core/comments/comment.schema.ts";
import { listReaderComments } from "../core/comments/comments.service.ts";
import { findReaderSession } from "../core/readers/reader-sessions.ts";
import { escapeHtml as escape } from "../core/shared/escape-html.ts";
import { formPageStyles } from "./form-page-styles.ts";
import { readReaderToken } from "./session-cookie.ts";
import { withSiteHeaders, type LoadTemplate } from "./site-pages.ts";
import { renderPage } from "./subscription-pages.ts";

/** The page's path (the function's `config.path`, the link on `/account`). */
export const accountCommentsPath = "/account/comments/";

/** Whether a request path is the page's (with or without the trailing slash). */
export const isAccountCommentsPath = (pathname: string) => pathname === accountCommentsPath || pathname === "/account/comments";

// The shared form rules (form-page-styles.ts), and the list's own cards.
const styles = formPageStyles(
  "nf-my-comments",
  { maxWidth: "44rem" },
  `.nf-my-comments ol{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:1.5rem}
.nf-my-comments article{border:3px solid #0a0a0a;box-shadow:4px 4px 0 #0a0a0a;background:#fff;color:#0a0a0a;padding:1rem}
.nf-my-comments header{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:baseline;font-size:.9rem}
.nf-my-comments header a{font-size:1rem;font-weight:700;text-decoration:underline}
.nf-my-comments .nf-badge{border:2px solid #0a0a0a;padding:0 .4rem;font-weight:600;background:#fafaf7}
.nf-my-comments .nf-body{margin:.5rem 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
`,
);

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** One comment: the post's title linked to the comment in its thread, the time, the mark when held, the text. */
function commentHtml(comment: ReaderComments["comments"][number]): string {
  const href = `/blog/${encodeURIComponent(comment.post.slug)}/#comment-${String(comment.id)}`;
  const held = comment.status === "held" ? `<span class="nf-badge">Awaiting approval</span>` : "";
  return `<li><article><header><a href="${escape(href)}">${escape(comment.post.title)}</a><time datetime="${escape(comment.createdAt)}">${escape(dateFormat.format(new Date(comment.createdAt)))} UTC</time>${held}</header><p class="nf-body">${escape(comment.body)}</p></article></li>`;
}

/** The answer to a request for `/account/comments/`, with the headers the built pages get. */
export async function answerAccountCommentsPage(deps: AppDeps, request: Request, loadTemplate: LoadTemplate): Promise<Response> {
  return withSiteHeaders(request, await accountCommentsAnswer(deps, request, loadTemplate));
}

async function accountCommentsAnswer(deps: AppDeps, request: Request, loadTemplate: LoadTemplate): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response("Method not allowed", { status: 405, headers: { allow: "GET, HEAD", "cache-control": "no-store" } });
  }
  const reader = await findReaderSession(deps, readReaderToken(request));
  if (!reader) {
    return renderPage(
      {
        status: 200,
        heading: "Your comments",
        text: "You're not signed in. Sign in with your email to see the comments you wrote.",
        links: [{ href: `/account?return=${encodeURIComponent(accountCommentsPath)}`, label: "Sign in" }],
      },
      accountCommentsPath,
      loadTemplate,
    );
  }
  const { comments } = await listReaderComments(deps.db, reader.subscriberId);
  const list =
    comments.length === 0 ? `<p>You haven't written a comment yet.</p>` : `<ol>${comments.map((comment) => commentHtml(comment)).join("")}</ol>`;
  return renderPage(
    {
      status: 200,
      heading: "Your comments",
      text: "The comments you wrote, newest first. Those awaiting approval show to you alone until they're approved.",
      bodyHtml: `${styles}<div class="nf-my-comments">${list}</div>`,
      links: [{ href: "/account", label: "Back to your account" }],
    },
    accountCommentsPath,
    loadTemplate,
  );
}
