import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { commentNoticesUnsubscribePath, ownerNoticeIntervalMs, queueCommentsWaitingNotice } from "../../core/comments/comment-notices.ts";
import { bannedMessage, commentsPagePath, editWindowMessage, type CommentList, type CommentQueue } from "../../core/comments/comment.schema.ts";
import { deletedReaderName } from "../../core/comments/comments.service.ts";
import { createReaderSession } from "../../core/readers/reader-sessions.ts";
import { updateSiteSetting } from "../../core/settings/settings.service.ts";
import { readerCookie } from "../session-cookie.ts";

let app: TestApp;
let clock: FakeClock;
let ip = 0;
let postId: number;

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
  await app.deps.db.exec("DELETE FROM comments; DELETE FROM comment_owner_notices; DELETE FROM rate_limit_counters; DELETE FROM outbox");
  clock.advance(60 * 60 * 1000);
  const slug = `post-${String(Date.now())}-${String(ip)}`;
  const [post] = await rows<{ id: number }>(
    "INSERT INTO posts (title, content, slug, published, published_at) VALUES ('Fails', '<p>x</p>', $1, true, $2) RETURNING id",
    [slug, clock.now()],
  );
  postId = (post as { id: number }).id;
});

/** Each call from its own client address unless one is given. */
function call(path: string, init: RequestInit = {}, clientIp?: string) {
  ip += 1;
  return app.handler(new Request(new URL(path, testOrigin), init), { ip: clientIp ?? `198.18.${String(ip >> 8)}.${String(ip & 255)}` });
}

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { origin: testOrigin, "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

let readerCount = 0;
/** A confirmed subscriber with a display name and a live reader session: its id and cookie header. */
async function reader(name = "Ann"): Promise<{ id: number; email: string; cookie: string }> {
  readerCount += 1;
  const email = `reader${String(readerCount)}@example.com`;
  const [row] = await rows<{ id: number }>(
    "INSERT INTO subscribers (email, source, subscribed_at, status, confirmed_at, display_name) VALUES ($1, 'newsletter', $2, 'active', $2, $3) RETURNING id",
    [email, clock.now(), name],
  );
  const id = (row as { id: number }).id;
  const { token } = await createReaderSession(app.deps, id);
  const cookie = (readerCookie(new Request(testOrigin), token).split(";")[0] ?? "").trim();
  return { id, email, cookie };
}

const write = (cookie: Record<string, string>, body: unknown, clientIp?: string) =>
  call(`/api/posts/${String(postId)}/comments`, json("POST", body, cookie), clientIp);
const thread = async (headers: Record<string, string> = {}, query = ""): Promise<CommentList> => {
  const response = await call(`/api/posts/${String(postId)}/comments${query}`, { headers });
  expect(response.status).toBe(200);
  return (await response.json()) as CommentList;
};
const moderate = async (ids: number[], action: string) => call("/api/comments/moderate", json("POST", { ids, action }, await app.adminHeaders()));

/** A reader whose first comment the owner approved: the next ones go up by the rules. */
async function trusted(name = "Tess") {
  const person = await reader(name);
  const first = (await (await write({ cookie: person.cookie }, { body: "Hello" })).json()) as { id: number };
  expect((await moderate([first.id], "approve")).status).toBe(200);
  return person;
}

describe("writing comments", () => {
  it("holds a reader's first comment, shows it only to them (marked), and approves the next once one was approved", async () => {
    const ann = await reader();
    const first = await write({ cookie: ann.cookie }, { body: "First thoughts\n\nOn two lines" });
    expect(first.status).toBe(201);
    const created = (await first.json()) as { id: number; status: string };
    expect(created.status).toBe("held");
    expect((await thread()).comments).toEqual([]);
    expect((await thread()).total).toBe(0);
    const own = await thread({ cookie: ann.cookie });
    expect(own.comments).toMatchObject([{ id: created.id, status: "held", mine: true, author: { name: "Ann", isOwner: false } }]);
    expect(own.comments[0]?.html).toBe("<p>First thoughts</p><p>On two lines</p>");
    const other = await reader("Bob");
    expect((await thread({ cookie: other.cookie })).comments).toEqual([]);
    // Still held until the owner approves one: a second comment waits too.
    expect(((await (await write({ cookie: ann.cookie }, { body: "Again" })).json()) as { status: string }).status).toBe("held");
    expect((await moderate([created.id], "approve")).status).toBe(200);
    const later = (await (await write({ cookie: ann.cookie }, { body: "Later" })).json()) as { status: string };
    expect(later.status).toBe("approved");
    const seen = await thread();
    expect(seen.comments.map((comment) => comment.html)).toEqual(["<p>First thoughts</p><p>On two lines</p>", "<p>Later</p>"]);
    expect(seen.comments.every((comment) => comment.status === undefined && comment.mine === undefined)).toBe(true);
  });

  it("holds by the rules: more links than the limit, a word on the owner's list, a reader marked always hold", async () => {
    const tess = await trusted();
    const status = async (body: string) => ((await (await write({ cookie: tess.cookie }, { body })).json()) as { status: string }).status;
    expect(await status("See https://a.example and www.b.example")).toBe("approved");
    expect(await status("https://a.example https://b.example https://c.example")).toBe("held");
    await updateSiteSetting(app.deps, "comment_hold_words", "crypto, get rich");
    expect(await status("Buy CRYPTO now")).toBe("held");
    expect(await status("cryptography is fine")).toBe("approved");
    await updateSiteSetting(app.deps, "comment_hold_words", "");
    // Past the reader's 5 a minute (the sliding window's previous minute counts too).
    clock.advance(2 * 60 * 1000);
    const headers = await app.adminHeaders();
    expect((await call(`/api/readers/${String(tess.id)}/hold`, { method: "POST", headers })).status).toBe(200);
    expect(await status("Plain words")).toBe("held");
    const reasons = await rows<{ hold_reason: string }>("SELECT hold_reason FROM comments WHERE status = 'held' ORDER BY id");
    expect(reasons.map((row) => row.hold_reason)).toEqual([
      "More links than the limit",
      "A word on the hold list",
      "The reader is marked always hold",
    ]);
    expect((await call(`/api/readers/${String(tess.id)}/unhold`, { method: "POST", headers })).status).toBe(200);
    expect(await status("Plain again")).toBe("approved");
  });

  it("renders plain text only: HTML escaped, links nofollow ugc noopener", async () => {
    const tess = await trusted();
    await write({ cookie: tess.cookie }, { body: '<script>alert(1)</script> see https://example.com/a?b=1&c=2.\nnext "line"' });
    const html = (await thread()).comments.at(-1)?.html;
    expect(html).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; see <a href="https://example.com/a?b=1&amp;c=2" rel="nofollow ugc noopener">https://example.com/a?b=1&amp;c=2</a>.<br>next &quot;line&quot;</p>',
    );
    expect((await write({ cookie: tess.cookie }, { body: "x".repeat(5001) })).status).toBe(400);
    expect((await write({ cookie: tess.cookie }, { body: "   " })).status).toBe(400);
  });

  it("attaches a reply to a reply to the top-level comment", async () => {
    const tess = await trusted();
    const top = (await (await write({ cookie: tess.cookie }, { body: "Top" })).json()) as { id: number };
    const reply = (await (await write({ cookie: tess.cookie }, { body: "Reply", parentId: top.id })).json()) as { id: number };
    await write({ cookie: tess.cookie }, { body: "Deeper", parentId: reply.id });
    const comments = (await thread()).comments.filter((comment) => comment.parentId !== null);
    expect(comments.map((comment) => comment.parentId)).toEqual([top.id, top.id]);
    expect((await write({ cookie: tess.cookie }, { body: "x", parentId: 999_999 })).status).toBe(400);
  });

  it("needs a reader: 401 signed out; the owner's session writes as the author, approved", async () => {
    expect((await write({}, { body: "Anyone?" })).status).toBe(401);
    const owner = await write(await app.adminHeaders(), { body: "Author here" });
    expect(await owner.json()).toMatchObject({ status: "approved" });
    expect((await thread()).comments).toMatchObject([{ author: { name: "No Filter", isOwner: true } }]);
  });

  it("answers a filled honeypot as held and stores nothing", async () => {
    const ann = await reader();
    const response = await write({ cookie: ann.cookie }, { body: "Buy now", website: "https://spam.example" });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ status: "held" });
    expect(await rows("SELECT id FROM comments")).toEqual([]);
  });

  it("stops a script: 429 per reader long before 100 comments, and per client whoever signs in", async () => {
    const tess = await trusted();
    clock.advance(2 * 60 * 60 * 1000);
    const statuses: number[] = [];
    for (let n = 0; n < 100; n += 1) statuses.push((await write({ cookie: tess.cookie }, { body: `Spam ${String(n)}` })).status);
    expect(statuses.indexOf(429)).toBe(5);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    const stored = await rows<{ n: number }>("SELECT count(*)::int AS n FROM comments WHERE body LIKE 'Spam%'");
    expect(stored[0]?.n).toBe(5);
    // One address, many readers: 20 in 10 minutes (the trusted reader's first comment came from another).
    const results: number[] = [];
    for (let n = 0; n < 25; n += 1)
      results.push((await write({ cookie: (await reader(`R${String(n)}`)).cookie }, { body: "hi" }, "203.0.113.50")).status);
    expect(results.indexOf(429)).toBe(20);
    const limited = await write({ cookie: tess.cookie }, { body: "again" });
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("refuses a banned reader (403) and hides their comments from every public answer until unbanned", async () => {
    const tess = await trusted();
    await write({ cookie: tess.cookie }, { body: "Visible" });
    expect((await thread()).total).toBe(2);
    const headers = await app.adminHeaders();
    expect(await (await call(`/api/readers/${String(tess.id)}/ban`, { method: "POST", headers })).json()).toEqual({
      id: tess.id,
      banned: true,
      alwaysHold: false,
    });
    const refused = await write({ cookie: tess.cookie }, { body: "Still here" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: bannedMessage });
    expect(await thread()).toMatchObject({ comments: [], total: 0 });
    expect((await thread({ cookie: tess.cookie })).comments).toEqual([]);
    await call(`/api/readers/${String(tess.id)}/unban`, { method: "POST", headers });
    expect((await thread()).total).toBe(2);
  });

  it("honours closed posts and the site-wide switch", async () => {
    const tess = await trusted();
    await app.deps.db.query("UPDATE posts SET comments_closed = true WHERE id = $1", [postId]);
    expect((await write({ cookie: tess.cookie }, { body: "x" })).status).toBe(403);
    expect((await thread()).open).toBe(false);
    await app.deps.db.query("UPDATE posts SET comments_closed = false WHERE id = $1", [postId]);
    await updateSiteSetting(app.deps, "comments_enabled", "off");
    expect((await write({ cookie: tess.cookie }, { body: "x" })).status).toBe(403);
    expect(await thread()).toMatchObject({ comments: [], total: 0, open: false, enabled: false });
    await updateSiteSetting(app.deps, "comments_enabled", "on");
    expect(await thread()).toMatchObject({ total: 1, open: true, enabled: true });
  });

  it("names who asks (viewer: reader, owner or null) so the island lets the owner write as the author", async () => {
    const ann = await reader();
    expect((await thread()).viewer).toBeNull();
    expect((await thread({ cookie: ann.cookie })).viewer).toBe("reader");
    const owner = { cookie: (await app.adminHeaders()).cookie ?? "" };
    expect((await thread(owner)).viewer).toBe("owner");
    // A reader cookie that names no session any more is nobody.
    await app.deps.db.exec("DELETE FROM reader_sessions");
    expect((await thread({ cookie: ann.cookie })).viewer).toBeNull();
    await updateSiteSetting(app.deps, "comments_enabled", "off");
    expect(await thread(owner)).toMatchObject({ enabled: false, viewer: "owner" });
    await updateSiteSetting(app.deps, "comments_enabled", "on");
  });

  it("answers the no-JavaScript form with a 303 back to the comments page and a notice", async () => {
    const ann = await reader();
    const [post] = await rows<{ slug: string }>("SELECT slug FROM posts WHERE id = $1", [postId]);
    const slug = (post as { slug: string }).slug;
    const form = (cookie: string, body: string) =>
      call(`/api/posts/${String(postId)}/comments`, {
        method: "POST",
        headers: { origin: testOrigin, "content-type": "application/x-www-form-urlencoded", ...(cookie && { cookie }) },
        body,
      });
    const held = await form(ann.cookie, new URLSearchParams({ body: "From a form", parentId: "", website: "" }).toString());
    expect(held.status).toBe(303);
    expect(held.headers.get("location")).toBe(`${commentsPagePath(slug, "held")}#comments`);
    const signedOut = await form("", new URLSearchParams({ body: "Who?" }).toString());
    expect(signedOut.headers.get("location")).toBe(`${commentsPagePath(slug, "signed-out")}#comment-form`);
  });
});

describe("the public thread", () => {
  it("never shows held, hidden, spam or a banned reader's comments, on any page or order; the CDN keeps an anonymous answer 5 s", async () => {
    const tess = await trusted();
    const ids: number[] = [];
    for (const body of ["a", "b", "c", "d"]) ids.push(((await (await write({ cookie: tess.cookie }, { body })).json()) as { id: number }).id);
    await moderate([ids[1] as number], "hide");
    await moderate([ids[2] as number], "spam");
    const newcomer = await reader("New");
    await write({ cookie: newcomer.cookie }, { body: "held one" });
    for (const query of ["", "?order=newest", "?page=2", "?order=oldest&page=1"]) {
      const response = await call(`/api/posts/${String(postId)}/comments${query}`);
      const list = (await response.json()) as CommentList;
      for (const comment of list.comments) expect(["<p>Hello</p>", "<p>a</p>", "<p>d</p>"]).toContain(comment.html);
      expect(list.total).toBe(3);
      expect(response.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=5");
    }
    expect((await thread({}, "?order=newest")).comments.map((comment) => comment.html)).toEqual(["<p>d</p>", "<p>a</p>", "<p>Hello</p>"]);
    const personal = await call(`/api/posts/${String(postId)}/comments`, { headers: { cookie: newcomer.cookie } });
    expect(personal.headers.get("cache-control")).toBe("private, no-store");
    expect((await call("/api/posts/999999/comments")).status).toBe(404);
    const [draft] = await rows<{ id: number }>("INSERT INTO posts (title, content, slug) VALUES ('D', '<p>x</p>', $1) RETURNING id", [
      `draft-${String(ip)}`,
    ]);
    expect((await call(`/api/posts/${String((draft as { id: number }).id)}/comments`)).status).toBe(404);
  });
});

describe("the cards' counts", () => {
  it("counts what the public thread shows, per post asked for, 0 for a draft or an unknown id; an approval is in the next answer", async () => {
    const tess = await trusted();
    await write({ cookie: tess.cookie }, { body: "a" });
    const newcomer = await reader("New");
    const held = (await (await write({ cookie: newcomer.cookie }, { body: "held one" })).json()) as { id: number };
    const [draft] = await rows<{ id: number }>("INSERT INTO posts (title, content, slug) VALUES ('D', '<p>x</p>', $1) RETURNING id", [
      `draft-${String(ip)}`,
    ]);
    const draftId = (draft as { id: number }).id;
    await app.deps.db.query(
      "INSERT INTO comments (post_id, is_owner, body, html, status, created_at) VALUES ($1, true, 'x', '<p>x</p>', 'approved', $2)",
      [draftId, clock.now()],
    );
    const counts = async () => {
      // A reader's cookie changes nothing: the answer is the same for everyone.
      const response = await call(`/api/comments/counts?posts=${String(postId)},${String(draftId)},999999`, { headers: { cookie: newcomer.cookie } });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=5");
      return (await response.json()) as unknown;
    };
    expect(await counts()).toEqual({
      enabled: true,
      counts: [
        { id: postId, comments: 2 },
        { id: draftId, comments: 0 },
        { id: 999999, comments: 0 },
      ],
    });
    await moderate([held.id], "approve");
    expect(await counts()).toMatchObject({ counts: [{ id: postId, comments: 3 }, {}, {}] });
    await call(`/api/readers/${String(newcomer.id)}/ban`, { method: "POST", headers: await app.adminHeaders() });
    expect(await counts()).toMatchObject({ counts: [{ id: postId, comments: 2 }, {}, {}] });
    await updateSiteSetting(app.deps, "comments_enabled", "off");
    expect(await counts()).toEqual({ enabled: false, counts: [] });
    await updateSiteSetting(app.deps, "comments_enabled", "on");
    for (const bad of [
      "",
      "?posts=",
      "?posts=a",
      "?posts=1,,2",
      "?posts=0",
      "?posts=1,2147483648",
      `?posts=${Array.from({ length: 51 }, (_, i) => String(i + 1)).join(",")}`,
    ]) {
      const response = await call(`/api/comments/counts${bad}`);
      expect(response.status, bad).toBe(400);
      expect(Object.keys((await response.json()) as object)).toEqual(["error"]);
    }
  });
});

describe("editing and deleting", () => {
  it("lets the author edit or delete within 15 minutes, the owner any time; another reader gets 404", async () => {
    const tess = await trusted();
    const { id } = (await (await write({ cookie: tess.cookie }, { body: "Tpyo" })).json()) as { id: number };
    const edited = await call(`/api/comments/${String(id)}`, json("PUT", { body: "Typo" }, { cookie: tess.cookie }));
    expect(await edited.json()).toMatchObject({ id, html: "<p>Typo</p>", status: "approved" });
    const bob = await reader("Bob");
    expect((await call(`/api/comments/${String(id)}`, json("PUT", { body: "Mine now" }, { cookie: bob.cookie }))).status).toBe(404);
    clock.advance(15 * 60 * 1000 + 1);
    const late = await call(`/api/comments/${String(id)}`, json("PUT", { body: "Too late" }, { cookie: tess.cookie }));
    expect(late.status).toBe(403);
    expect(await late.json()).toEqual({ error: editWindowMessage });
    expect((await call(`/api/comments/${String(id)}`, { method: "DELETE", headers: { origin: testOrigin, cookie: tess.cookie } })).status).toBe(403);
    expect((await call(`/api/comments/${String(id)}`, json("PUT", { body: "Owner's fix" }, await app.adminHeaders()))).status).toBe(200);
    expect((await call(`/api/comments/${String(id)}`, { method: "DELETE", headers: await app.adminHeaders() })).status).toBe(204);
    expect(await rows("SELECT id FROM comments WHERE id = $1", [id])).toEqual([]);
  });
});

describe("the owner's queue", () => {
  it("is admin-only: a reader session gets 401 on every admin call", async () => {
    const ann = await reader();
    const headers = { origin: testOrigin, cookie: ann.cookie };
    for (const [path, method] of [
      ["/api/comments", "GET"],
      ["/api/comments/count", "GET"],
      ["/api/comments/moderate", "POST"],
      [`/api/readers/${String(ann.id)}/ban`, "POST"],
      [`/api/readers/${String(ann.id)}/unban`, "POST"],
      [`/api/readers/${String(ann.id)}/hold`, "POST"],
      [`/api/readers/${String(ann.id)}/unhold`, "POST"],
    ] as const) {
      const response = await call(path, method === "GET" ? { headers } : json(method, { ids: [1], action: "approve" }, headers));
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });

  it("lists by status and text with post and author, counts what waits, and moderates many at once", async () => {
    const ann = await reader("Ann");
    const bob = await reader("Bob");
    const a = (await (await write({ cookie: ann.cookie }, { body: "Great post" })).json()) as { id: number };
    const b = (await (await write({ cookie: bob.cookie }, { body: "Spammy stuff" })).json()) as { id: number };
    const headers = await app.adminHeaders();
    expect(await (await call("/api/comments/count", { headers })).json()).toEqual({ held: 2 });
    const queue = (await (await call("/api/comments?status=held", { headers })).json()) as CommentQueue;
    expect(queue).toMatchObject({ total: 2, held: 2, page: 1, pages: 1 });
    expect(queue.comments[0]).toMatchObject({
      id: b.id,
      post: { id: postId, title: "Fails" },
      author: { name: "Bob", email: bob.email, readerId: bob.id, banned: false, alwaysHold: false },
      body: "Spammy stuff",
      status: "held",
      holdReason: "The reader's first comment",
    });
    const search = (await (await call("/api/comments?q=great", { headers })).json()) as CommentQueue;
    expect(search.comments.map((comment) => comment.id)).toEqual([a.id]);
    expect(await (await moderate([a.id, b.id], "approve")).json()).toEqual({ changed: 2 });
    expect((await thread()).total).toBe(2);
    expect(await (await moderate([b.id], "spam")).json()).toEqual({ changed: 1 });
    expect((await thread()).total).toBe(1);
    expect(await (await moderate([b.id], "delete")).json()).toEqual({ changed: 1 });
    expect(((await (await call("/api/comments?status=spam", { headers })).json()) as CommentQueue).total).toBe(0);
    expect((await moderate([a.id], "ban")).status).toBe(400);
  });
});

describe("notices", () => {
  it("emails the owner when comments wait, at most one an hour, a list", async () => {
    await updateSiteSetting(app.deps, "contact_email", "owner@example.com");
    const before = app.mail.to("owner@example.com").length;
    const ann = await reader("Ann");
    await write({ cookie: ann.cookie }, { body: "Please approve me" });
    expect(await queueCommentsWaitingNotice(app.deps)).toBe(true);
    await app.deliverMail();
    const mails = app.mail.to("owner@example.com");
    expect(mails.length).toBe(before + 1);
    expect(mails.at(-1)?.subject).toMatch(/a comment is waiting/);
    expect(mails.at(-1)?.text).toContain("Please approve me");
    // Another comment within the hour: no second email until the hour is over.
    const bob = await reader("Bob");
    await write({ cookie: bob.cookie }, { body: "Me too" });
    expect(await queueCommentsWaitingNotice(app.deps)).toBe(false);
    clock.advance(ownerNoticeIntervalMs);
    expect(await queueCommentsWaitingNotice(app.deps)).toBe(true);
    // Nothing new waiting: nothing sent, whatever the hour.
    clock.advance(ownerNoticeIntervalMs);
    expect(await queueCommentsWaitingNotice(app.deps)).toBe(false);
  });

  it("emails a reader when someone replies, once, with a one-click unsubscribe that stops those emails", async () => {
    const tess = await trusted("Tess");
    const { id } = (await (await write({ cookie: tess.cookie }, { body: "My question" })).json()) as { id: number };
    const ann = await reader("Ann");
    const reply = (await (await write({ cookie: ann.cookie }, { body: "An answer", parentId: id })).json()) as { id: number; status: string };
    expect(reply.status).toBe("held");
    expect(app.mail.to(tess.email)).toHaveLength(0);
    await moderate([reply.id], "approve");
    await moderate([reply.id], "hide");
    await moderate([reply.id], "approve");
    const mails = app.mail.to(tess.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail?.subject).toBe("Ann replied to your comment on No Filter");
    expect(mail?.text).toContain("An answer");
    const unsubscribe = /<([^>]+)>/.exec(mail?.header("List-Unsubscribe") ?? "")?.[1] as string;
    expect(mail?.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(unsubscribe.startsWith(`${testOrigin}${commentNoticesUnsubscribePath}?token=`)).toBe(true);
    // A scanner's GET changes nothing; the provider's one-click POST (no Origin, no cookie) stops them.
    expect((await call(unsubscribe)).status).toBe(200);
    expect((await rows<{ on: boolean }>("SELECT comment_reply_notices AS on FROM subscribers WHERE id = $1", [tess.id]))[0]?.on).toBe(true);
    const stop = await call(unsubscribe, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(stop.status).toBe(200);
    expect((await rows<{ on: boolean }>("SELECT comment_reply_notices AS on FROM subscribers WHERE id = $1", [tess.id]))[0]?.on).toBe(false);
    const owner = (await (await write(await app.adminHeaders(), { body: "Owner's reply", parentId: id })).json()) as { status: string };
    expect(owner.status).toBe("approved");
    expect(app.mail.to(tess.email)).toHaveLength(1);
    const forged = await call(`${commentNoticesUnsubscribePath}?token=n.${String(tess.id)}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`, {
      method: "POST",
    });
    expect(await forged.text()).toContain("not valid");
  });
});

describe("privacy", () => {
  it("exports a person's comments, and an erase deletes the held ones and anonymises the published ones", async () => {
    const tess = await trusted("Tess");
    await write({ cookie: tess.cookie }, { body: "https://a.example https://b.example https://c.example" });
    const headers = await app.adminHeaders();
    const data = (await (await call(`/api/newsletter/subscribers/${String(tess.id)}/export`, { headers })).json()) as {
      comments: { body: string; status: string }[];
      readerSessions: unknown[];
    };
    expect(data.comments.map((comment) => [comment.body, comment.status])).toEqual([
      ["Hello", "approved"],
      ["https://a.example https://b.example https://c.example", "held"],
    ]);
    expect(JSON.stringify(data)).not.toMatch(/token/i);
    expect(data.readerSessions).toHaveLength(1);
    expect((await call(`/api/newsletter/subscribers/${String(tess.id)}`, { method: "DELETE", headers })).status).toBe(204);
    const left = await rows<{ subscriber_id: number | null; author_name: string; body: string }>(
      "SELECT subscriber_id, author_name, body FROM comments WHERE post_id = $1",
      [postId],
    );
    expect(left).toEqual([{ subscriber_id: null, author_name: deletedReaderName, body: "Hello" }]);
    expect((await thread()).comments).toMatchObject([{ author: { name: deletedReaderName, isOwner: false } }]);
  });
});
