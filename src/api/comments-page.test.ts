import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../tests/support/fake-clock.ts";
import { loadMessageTemplate as loadTemplate } from "../../tests/support/message-template.ts";
import { createTestApp, testOrigin, type TestApp } from "../../tests/support/test-app.ts";
import { commentNoticeMessages, commentsClosedMessage, commentsOffMessage } from "../core/comments/comment.schema.ts";
import { createReaderSession } from "../core/readers/reader-sessions.ts";
import { updateSiteSetting } from "../core/settings/settings.service.ts";
import { answerCommentsPage, commentsPageSlug } from "./comments-page.ts";
import { readerCookie } from "./session-cookie.ts";

// The no-JavaScript comments page (issue 44 point 6): what it shows to whom, on the real database.
let app: TestApp;
let clock: FakeClock;
let postId: number;
let slug: string;
let count = 0;

beforeAll(async () => {
  clock = createFakeClock();
  app = await createTestApp({ now: () => clock.now() });
});
afterAll(async () => {
  await app.close();
});

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await app.deps.db.query<T & Record<string, unknown>>(sql, params)).rows;
}

beforeEach(async () => {
  count += 1;
  clock.advance(60 * 60 * 1000);
  slug = `page-post-${String(count)}`;
  const [post] = await rows<{ id: number }>(
    "INSERT INTO posts (title, content, slug, published, published_at) VALUES ('Fails <& wins>', '<p>x</p>', $1, true, $2) RETURNING id",
    [slug, clock.now()],
  );
  postId = (post as { id: number }).id;
});

async function reader(name: string): Promise<{ id: number; cookie: string }> {
  count += 1;
  const [row] = await rows<{ id: number }>(
    "INSERT INTO subscribers (email, source, subscribed_at, status, confirmed_at, display_name) VALUES ($1, 'newsletter', $2, 'active', $2, $3) RETURNING id",
    [`page-reader${String(count)}@example.com`, clock.now(), name],
  );
  const id = (row as { id: number }).id;
  const { token } = await createReaderSession(app.deps, id);
  return { id, cookie: (readerCookie(new Request(testOrigin), token).split(";")[0] ?? "").trim() };
}

async function comment(values: { subscriberId?: number; owner?: boolean; parentId?: number; body: string; status: string }): Promise<number> {
  clock.advance(1000);
  const [row] = await rows<{ id: number }>(
    "INSERT INTO comments (post_id, parent_id, subscriber_id, is_owner, body, html, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    [
      postId,
      values.parentId ?? null,
      values.subscriberId ?? null,
      values.owner ?? false,
      values.body,
      `<p>${values.body}</p>`,
      values.status,
      clock.now(),
    ],
  );
  return (row as { id: number }).id;
}

async function open(path: string, cookie?: string): Promise<{ status: number; html: string; headers: Headers }> {
  const response = await answerCommentsPage(app.deps, new Request(new URL(path, testOrigin), { headers: cookie ? { cookie } : {} }), loadTemplate);
  return { status: response.status, html: await response.text(), headers: response.headers };
}

const pagePath = () => `/blog/${slug}/comments/`;
const formAction = () => `action="/api/posts/${String(postId)}/comments"`;

describe("the no-JavaScript comments page", () => {
  it("reads the slug from the page's path only", () => {
    expect(commentsPageSlug("/blog/fails/comments/")).toBe("fails");
    expect(commentsPageSlug("/blog/fails/comments")).toBe("fails");
    expect(commentsPageSlug("/blog/fails/")).toBeUndefined();
    expect(commentsPageSlug("/blog/a/b/comments/")).toBeUndefined();
  });

  it("shows the post's title (linked), approved comments with their replies, and never a held one to others", async () => {
    const ann = await reader("Ann");
    const bob = await reader("Bob");
    const top = await comment({ subscriberId: ann.id, body: "Approved top", status: "approved" });
    const reply = await comment({ owner: true, parentId: top, body: "Owner reply", status: "approved" });
    await comment({ subscriberId: bob.id, body: "Bob waits", status: "held" });
    await comment({ subscriberId: bob.id, body: "Hidden one", status: "hidden" });

    const page = await open(pagePath());
    expect(page.status).toBe(200);
    expect(page.headers.get("x-robots-tag")).toBe("noindex");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.html).toContain(`<a class="nf-post" href="/blog/${slug}/">Fails &lt;&amp; wins&gt;</a>`);
    // The island's markup: the reply in the top comment's own list, one level deep.
    expect(page.html).toMatch(
      new RegExp(`<li id="comment-${String(top)}">.*<p>Approved top</p>.*<ol><li id="comment-${String(reply)}">.*Author.*<p>Owner reply</p>`),
    );
    expect(page.html).toContain("2 comments");
    expect(page.html).not.toContain("Bob waits");
    expect(page.html).not.toContain("Hidden one");
    expect(page.html).not.toContain("Awaiting approval");
    expect(page.html).not.toContain("<script");
    // Signed out: no form, a way to sign in that comes back here.
    expect(page.html).not.toContain(formAction());
    expect(page.html).toContain(`href="/account?return=${encodeURIComponent(`${pagePath()}#comment-form`)}"`);

    const other = await open(pagePath(), ann.cookie);
    expect(other.html).not.toContain("Bob waits");
  });

  it("shows a reader their own held comment marked awaiting approval, and the form to write (with a reply form and the honeypot)", async () => {
    const ann = await reader("Ann");
    const bob = await reader("Bob");
    const top = await comment({ subscriberId: ann.id, body: "Approved top", status: "approved" });
    const held = await comment({ subscriberId: bob.id, body: "Bob waits", status: "held" });
    const page = await open(`${pagePath()}?notice=held`, bob.cookie);
    expect(page.status).toBe(200);
    expect(page.html).toMatch(new RegExp(`<li id="comment-${String(held)}">.*Awaiting approval.*<p>Bob waits</p>`));
    expect(page.html).toContain(commentNoticeMessages.held.replaceAll("'", "&#39;"));
    expect(page.html).toContain(`<form method="post" ${formAction()} id="comment-form">`);
    expect(page.html).toContain('name="body"');
    expect(page.html).toContain('name="website"');
    expect(page.html).toContain(`<input type="hidden" name="parentId" value="${String(top)}">`);
    // No reply to a comment that waits.
    expect(page.html).not.toContain(`name="parentId" value="${String(held)}"`);
    expect(page.html).not.toContain("Sign in to comment");
  });

  it("lets the owner write as the author, and ignores a notice it does not know", async () => {
    const owner = await app.adminHeaders();
    const page = await open(`${pagePath()}?notice=<b>`, owner.cookie);
    expect(page.html).toContain("Your comment (as the author)");
    expect(page.html).toContain(formAction());
    expect(page.html).not.toContain('class="nf-note" role="status"');
  });

  it("says so when the post's comments are closed or the feature is switched off", async () => {
    const ann = await reader("Ann");
    await comment({ subscriberId: ann.id, body: "Before closing", status: "approved" });
    await app.deps.db.query("UPDATE posts SET comments_closed = true WHERE id = $1", [postId]);
    const closed = await open(pagePath(), ann.cookie);
    expect(closed.html).toContain(commentsClosedMessage);
    expect(closed.html).toContain("Before closing");
    expect(closed.html).not.toContain(formAction());
    await updateSiteSetting(app.deps, "comments_enabled", "off");
    try {
      const off = await open(pagePath(), ann.cookie);
      expect(off.status).toBe(200);
      expect(off.html).toContain(commentsOffMessage.replaceAll("'", "&#39;"));
      expect(off.html).not.toContain("Before closing");
      expect(off.html).not.toContain(formAction());
    } finally {
      await updateSiteSetting(app.deps, "comments_enabled", "on");
    }
  });

  it("answers 404 for an unknown or unpublished slug, and 405 to anything but GET and HEAD", async () => {
    expect((await open("/blog/no-such-post/comments/")).status).toBe(404);
    await app.deps.db.query("UPDATE posts SET published = false, published_at = NULL WHERE id = $1", [postId]);
    const draft = await open(pagePath());
    expect(draft.status).toBe(404);
    expect(draft.html).toContain("Post not found");
    const post = await answerCommentsPage(app.deps, new Request(new URL(pagePath(), testOrigin), { method: "POST" }), loadTemplate);
    expect(post.status).toBe(405);
  });
});
