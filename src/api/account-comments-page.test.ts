import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../tests/support/fake-clock.ts";
import { loadMessageTemplate as loadTemplate } from "../../tests/support/message-template.ts";
import { createTestApp, testOrigin, type TestApp } from "../../tests/support/test-app.ts";
import { createReaderSession } from "../core/readers/reader-sessions.ts";
import { accountCommentsPath, answerAccountCommentsPage, isAccountCommentsPath } from "./account-comments-page.ts";
import { readerCookie } from "./session-cookie.ts";

// The reader's own comments without JavaScript (issue 44 point 2), on the real database.
let app: TestApp;
let clock: FakeClock;
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

async function post(title: string): Promise<{ id: number; slug: string }> {
  count += 1;
  const slug = `mine-post-${String(count)}`;
  const [row] = await rows<{ id: number }>(
    "INSERT INTO posts (title, content, slug, published, published_at) VALUES ($1, '<p>x</p>', $2, true, $3) RETURNING id",
    [title, slug, clock.now()],
  );
  return { id: (row as { id: number }).id, slug };
}

async function reader(name: string): Promise<{ id: number; cookie: string }> {
  count += 1;
  const [row] = await rows<{ id: number }>(
    "INSERT INTO subscribers (email, source, subscribed_at, status, confirmed_at, display_name) VALUES ($1, 'newsletter', $2, 'active', $2, $3) RETURNING id",
    [`mine-reader${String(count)}@example.com`, clock.now(), name],
  );
  const id = (row as { id: number }).id;
  const { token } = await createReaderSession(app.deps, id);
  return { id, cookie: (readerCookie(new Request(testOrigin), token).split(";")[0] ?? "").trim() };
}

async function comment(postId: number, subscriberId: number, body: string, status: string): Promise<number> {
  clock.advance(60_000);
  const [row] = await rows<{ id: number }>(
    "INSERT INTO comments (post_id, subscriber_id, body, html, status, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    [postId, subscriberId, body, `<p>${body}</p>`, status, clock.now()],
  );
  return (row as { id: number }).id;
}

async function open(cookie?: string, path = accountCommentsPath, method = "GET"): Promise<{ status: number; html: string; headers: Headers }> {
  const response = await answerAccountCommentsPage(
    app.deps,
    new Request(new URL(path, testOrigin), { method, headers: cookie ? { cookie } : {} }),
    loadTemplate,
  );
  return { status: response.status, html: await response.text(), headers: response.headers };
}

describe("the reader's comments page", () => {
  it("answers its path with and without the trailing slash, and nothing else", () => {
    expect(isAccountCommentsPath("/account/comments/")).toBe(true);
    expect(isAccountCommentsPath("/account/comments")).toBe(true);
    expect(isAccountCommentsPath("/account/")).toBe(false);
    expect(isAccountCommentsPath("/account/comments/x")).toBe(false);
  });

  it("lists the signed-in reader's own comments newest first, linked to their thread, held ones marked, nobody else's", async () => {
    const first = await post("First <post>");
    const second = await post("Second & last");
    const me = await reader("Mina");
    const other = await reader("Otto");
    const older = await comment(first.id, me.id, "Older words\nover two lines", "approved");
    await comment(first.id, other.id, "Otto's words", "approved");
    const held = await comment(second.id, me.id, "Held <b>words</b>", "held");
    await comment(second.id, me.id, "Spam words", "spam");

    const page = await open(me.cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(page.html).not.toContain("<script");
    expect(page.html).toContain(`href="/blog/${second.slug}/#comment-${String(held)}">Second &amp; last</a>`);
    expect(page.html).toContain(`href="/blog/${first.slug}/#comment-${String(older)}">First &lt;post&gt;</a>`);
    // Newest first; the text as written, escaped; held marked.
    expect(page.html.indexOf("Held &lt;b&gt;words&lt;/b&gt;")).toBeLessThan(page.html.indexOf("Older words\nover two lines"));
    const heldCard = page.html.slice(page.html.indexOf(`#comment-${String(held)}`), page.html.indexOf("Held &lt;b&gt;"));
    expect(heldCard).toContain("Awaiting approval");
    expect(page.html.match(/Awaiting approval/g)).toHaveLength(1);
    expect(page.html).not.toContain("Otto's words");
    expect(page.html).not.toContain("Spam words");
    expect(page.html).toContain('href="/account"');
  });

  it("says when the reader has written nothing yet", async () => {
    const nobody = await reader("Quiet");
    expect((await open(nobody.cookie)).html).toContain("You haven't written a comment yet.");
  });

  it("asks a visitor who is not signed in to sign in, and lists nothing", async () => {
    const page = await open();
    expect(page.status).toBe(200);
    expect(page.html).toContain("not signed in. Sign in with your email");
    expect(page.html).toContain(`href="/account?return=${encodeURIComponent(accountCommentsPath)}"`);
    expect(page.html).not.toContain("<ol>");
    expect((await open("nf_reader=not-a-session")).html).toContain("not signed in. Sign in with your email");
  });

  it("answers only reads", async () => {
    const page = await open(undefined, accountCommentsPath, "POST");
    expect(page.status).toBe(405);
  });
});
