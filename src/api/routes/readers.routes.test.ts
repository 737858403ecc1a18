import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { commentNoticesUnsubscribePath, signCommentNoticesToken } from "../../core/comments/comment-notices.ts";
import { codeAddressLimit, maxFailedCodes, signInLifetimeMs, spentLinkMessage, wrongCodeMessage } from "../../core/readers/reader-sign-in.ts";
import { readerSessionMs } from "../../core/readers/reader-sessions.ts";
import { readerCookie } from "../session-cookie.ts";
import { checkInboxMessage } from "./readers.handlers.ts";

let app: TestApp;
let clock: FakeClock;
let ip = 0;

beforeAll(async () => {
  clock = createFakeClock();
  app = await createTestApp({ now: () => clock.now() });
});
afterAll(async () => {
  await app.close();
});

/** Each call from its own client address unless one is given, so per-client limits stay out of the way. */
function call(path: string, init: RequestInit = {}, clientIp?: string) {
  ip += 1;
  return app.handler(new Request(new URL(path, testOrigin), init), { ip: clientIp ?? `198.19.${String(ip >> 8)}.${String(ip & 255)}` });
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}, clientIp?: string) =>
  call(
    path,
    { method: "POST", headers: { origin: testOrigin, "content-type": "application/json", ...headers }, body: JSON.stringify(body) },
    clientIp,
  );

async function activeSubscriber(email: string): Promise<number> {
  const { rows } = await app.deps.db.query<{ id: number }>(
    "INSERT INTO subscribers (email, source, subscribed_at, status, confirmed_at) VALUES ($1, 'newsletter', $2, 'active', $2) RETURNING id",
    [email, clock.now()],
  );
  return (rows[0] as { id: number }).id;
}

/** The sign-in email's six digits and the link's token (from the fragment of its Continue page). */
function signInParts(mail: CaughtMail): { code: string; token: string; link: string } {
  const code = /\b(\d{6})\b/.exec(mail.subject)?.[1];
  const link = new RegExp(`${testOrigin}/account/continue#token=[\\w-]+`).exec(mail.html)?.[0];
  if (!code || !link) throw new Error(`no code or link in "${mail.subject}"`);
  expect(mail.text).toContain(code);
  expect(mail.text).toContain(link);
  return { code, token: new URLSearchParams(new URL(link).hash.slice(1)).get("token") ?? "", link };
}

async function askAndRead(email: string): Promise<{ code: string; token: string; link: string }> {
  const before = app.mail.to(email).length;
  expect((await post("/api/readers/sign-in", { email })).status).toBe(202);
  const mails = app.mail.to(email);
  expect(mails.length).toBe(before + 1);
  return signInParts(mails[mails.length - 1] as CaughtMail);
}

const cookieOf = (response: Response) => (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await app.deps.db.query<T & Record<string, unknown>>(sql, params)).rows;
}

describe("reader sign-in", () => {
  it("answers the same for a subscriber and an unknown address; the stranger gets the confirm email, the subscriber link and code", async () => {
    await activeSubscriber("ann@example.com");
    const known = await post("/api/readers/sign-in", { email: "ann@example.com" });
    const unknown = await post("/api/readers/sign-in", { email: "nobody@example.com" });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(await known.json()).toEqual({ message: checkInboxMessage });
    expect(await unknown.json()).toEqual({ message: checkInboxMessage });
    expect(app.mail.to("nobody@example.com")[0]?.subject).toMatch(/Confirm your subscription/);
    const [pending] = await rows<{ status: string }>("SELECT status FROM subscribers WHERE email = 'nobody@example.com'");
    expect(pending?.status).toBe("pending");
    const [consent] = await rows<{ n: number }>(
      "SELECT count(*)::int AS n FROM subscriber_consents c JOIN subscribers s ON s.id = c.subscriber_id WHERE s.email = 'nobody@example.com'",
    );
    expect(consent?.n).toBe(1);
    const mail = app.mail.to("ann@example.com")[0] as CaughtMail;
    expect(mail.subject).toMatch(/sign-in code: \d{6}$/);
    signInParts(mail);
    // Only hashes are kept: neither the code nor the token is in the row.
    const { code, token } = signInParts(mail);
    const stored = JSON.stringify(await rows("SELECT * FROM reader_sign_ins"));
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(`"${code}"`);
  });

  it("sends at most one sign-in email a minute per address", async () => {
    await activeSubscriber("bea@example.com");
    await askAndRead("bea@example.com");
    expect((await post("/api/readers/sign-in", { email: "bea@example.com" })).status).toBe(202);
    expect(app.mail.to("bea@example.com")).toHaveLength(1);
    clock.advance(61_000);
    await askAndRead("bea@example.com");
  });

  it("spends nothing on a scanner's GET or HEAD of the link; the Continue POST signs in, once", async () => {
    await activeSubscriber("cat@example.com");
    const { token, link } = await askAndRead("cat@example.com");
    for (const method of ["GET", "HEAD"]) {
      await call(new URL(link).pathname, { method });
      const verifyGet = await call(`/api/readers/sign-in/verify?token=${token}`, { method });
      expect(verifyGet.status).toBe(405);
    }
    const [live] = await rows<{ used_at: Date | null }>("SELECT used_at FROM reader_sign_ins ORDER BY id DESC LIMIT 1");
    expect(live?.used_at).toBeNull();
    const signedIn = await post("/api/readers/sign-in/verify", { token });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toMatchObject({ email: "cat@example.com", name: null, status: "active" });
    const setCookie = signedIn.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^nf_reader=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toContain(`Max-Age=${String(readerSessionMs / 1000)}`);
    const again = await post("/api/readers/sign-in/verify", { token });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: spentLinkMessage });
  });

  it("refuses the link's POST from another site", async () => {
    await activeSubscriber("cross@example.com");
    const { token } = await askAndRead("cross@example.com");
    expect((await post("/api/readers/sign-in/verify", { token }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await post("/api/readers/sign-in/verify", { token })).status).toBe(200);
  });

  it("names the cookie __Host-nf_reader, Secure, over https", () => {
    const cookie = readerCookie(new Request("https://example.com/api/readers/sign-in/verify"), "t");
    expect(cookie).toMatch(/^__Host-nf_reader=t; /);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Domain/);
  });

  it("signs in with the code once: using it spends the link too", async () => {
    await activeSubscriber("dan@example.com");
    const { code, token } = await askAndRead("dan@example.com");
    const signedIn = await post("/api/readers/sign-in/verify", { email: "Dan@Example.com", code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(signedIn.status).toBe(200);
    expect((await post("/api/readers/sign-in/verify", { email: "dan@example.com", code })).status).toBe(400);
    expect((await post("/api/readers/sign-in/verify", { token })).status).toBe(400);
  });

  it("lets a code and a link run out after 15 minutes", async () => {
    await activeSubscriber("eve@example.com");
    const { code, token } = await askAndRead("eve@example.com");
    clock.advance(signInLifetimeMs);
    const late = await post("/api/readers/sign-in/verify", { email: "eve@example.com", code });
    expect(late.status).toBe(400);
    expect(await late.json()).toEqual({ error: wrongCodeMessage });
    expect((await post("/api/readers/sign-in/verify", { token })).status).toBe(400);
  });

  it("spends a code after 5 wrong ones, and throttles guesses per address, then lets the reader in again after the window", async () => {
    await activeSubscriber("fay@example.com");
    const { code } = await askAndRead("fay@example.com");
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < maxFailedCodes; i += 1) {
      expect((await post("/api/readers/sign-in/verify", { email: "fay@example.com", code: wrong })).status).toBe(400);
    }
    // The right code is spent now: 5 wrong ones killed it.
    expect((await post("/api/readers/sign-in/verify", { email: "fay@example.com", code })).status).toBe(400);
    for (let i = maxFailedCodes + 1; i < codeAddressLimit.max; i += 1) {
      expect((await post("/api/readers/sign-in/verify", { email: "fay@example.com", code: wrong })).status).toBe(400);
    }
    const limited = await post("/api/readers/sign-in/verify", { email: "fay@example.com", code: wrong });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // A fresh email within the window: the address's tries are still used up.
    clock.advance(61_000);
    const fresh = await askAndRead("fay@example.com");
    expect((await post("/api/readers/sign-in/verify", { email: "fay@example.com", code: fresh.code })).status).toBe(429);
    // ... but its link still works, and once the window slid by the code does too.
    clock.advance(2 * codeAddressLimit.windowMs);
    const later = await askAndRead("fay@example.com");
    expect((await post("/api/readers/sign-in/verify", { email: "fay@example.com", code: later.code })).status).toBe(200);
  });

  it("throttles code guesses per client, across addresses", async () => {
    const client = "198.51.100.9";
    let status = 0;
    let tries = 0;
    while (status !== 429 && tries < 100) {
      tries += 1;
      status = (await post("/api/readers/sign-in/verify", { email: `x${String(tries)}@example.com`, code: "123456" }, {}, client)).status;
    }
    expect(status).toBe(429);
    expect(tries).toBe(31);
    clock.advance(2 * codeAddressLimit.windowMs);
    expect((await post("/api/readers/sign-in/verify", { email: "y@example.com", code: "123456" }, {}, client)).status).toBe(400);
  });

  it("answers 400 with a clear message to a malformed body", async () => {
    const response = await post("/api/readers/sign-in/verify", { email: "a@example.com", code: "12ab56" });
    expect(response.status).toBe(400);
    expect((await response.json()) as { error: string }).toHaveProperty("error");
  });
});

describe("the reader's session", () => {
  async function signIn(email: string): Promise<{ id: number; cookie: string }> {
    const id = await activeSubscriber(email);
    const { token } = await askAndRead(email);
    const response = await post("/api/readers/sign-in/verify", { token });
    expect(response.status).toBe(200);
    return { id, cookie: cookieOf(response) };
  }

  it("reads and renames the reader, signs out, and answers 401 after", async () => {
    const { cookie } = await signIn("gus@example.com");
    expect((await call("/api/readers/me")).status).toBe(401);
    const me = await call("/api/readers/me", { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.headers.get("cache-control")).toBe("no-store");
    const profile = (await me.json()) as { email: string; name: string | null; preferencesUrl: string };
    expect(profile).toMatchObject({ email: "gus@example.com", name: null });
    // Their own "Choose what you get" page, the same the emails link to: it opens on their topics.
    const preferences = await call(
      profile.preferencesUrl.replace(/^https?:\/\/[^/]+/, "").replace("/api/newsletter/preferences", "/api/preferences"),
    );
    expect(preferences.status).toBe(200);
    expect(await preferences.json()).toMatchObject({ email: "g***@example.com", everything: true, frequency: "each" });
    const renamed = await call("/api/readers/me", {
      method: "PUT",
      headers: { cookie, origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify({ name: "  Gus   the Founder " }),
    });
    expect(await renamed.json()).toMatchObject({ name: "Gus the Founder" });
    for (const name of ["", "x".repeat(51), "<b>Gus</b>"]) {
      const refused = await call("/api/readers/me", {
        method: "PUT",
        headers: { cookie, origin: testOrigin, "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
      expect(refused.status).toBe(400);
    }
    const out = await post("/api/readers/sign-out", {}, { cookie });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/^nf_reader=;.*Max-Age=0/);
    expect((await call("/api/readers/me", { headers: { cookie } })).status).toBe(401);
  });

  it("turns reply emails back on after a notice's one-click unsubscribe, and shows the state", async () => {
    const { id, cookie } = await signIn("ida@example.com");
    const me = async () => ((await (await call("/api/readers/me", { headers: { cookie } })).json()) as { replyNotices: boolean }).replyNotices;
    const put = (body: unknown, headers: Record<string, string> = { cookie }) =>
      call("/api/readers/me/reply-notices", {
        method: "PUT",
        headers: { ...headers, origin: testOrigin, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect(await me()).toBe(true);
    // A reply email's RFC 8058 one-click POST: no cookie, no Origin, the signed token.
    const token = signCommentNoticesToken(app.deps.signer, id);
    const stopped = await call(`${commentNoticesUnsubscribePath}?token=${encodeURIComponent(token)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(stopped.status).toBe(200);
    expect(await me()).toBe(false);
    const on = await put({ on: true });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ email: "ida@example.com", replyNotices: true });
    expect(await rows("SELECT comment_reply_notices FROM subscribers WHERE id = $1", [id])).toEqual([{ comment_reply_notices: true }]);
    expect(await (await put({ on: false })).json()).toMatchObject({ replyNotices: false });
    expect(await me()).toBe(false);
    expect((await put({ on: "yes" })).status).toBe(400);
    expect((await put({})).status).toBe(400);
    const signedOut = await put({ on: true }, {});
    expect(signedOut.status).toBe(401);
    expect(await me()).toBe(false);
  });

  it("lists the reader's own comments shown or waiting, newest first, for their page", async () => {
    const { id, cookie } = await signIn("cal@example.com");
    const [post] = await rows<{ id: number }>(
      "INSERT INTO posts (title, content, slug, published, published_at) VALUES ('Fails', '<p>x</p>', 'fails-cal', true, $1) RETURNING id",
      [clock.now()],
    );
    const postId = (post as { id: number }).id;
    const at = (minutes: number) => new Date(clock.now().getTime() + minutes * 60_000);
    for (const [body, status, minutes] of [
      ["First", "approved", 1],
      ["Waiting", "held", 2],
      ["Hidden", "hidden", 3],
      ["Spam", "spam", 4],
    ] as const) {
      await rows("INSERT INTO comments (post_id, subscriber_id, body, html, status, created_at) VALUES ($1, $2, $3, $3, $4, $5)", [
        postId,
        id,
        body,
        status,
        at(minutes),
      ]);
    }
    const answer = await call("/api/readers/me/comments", { headers: { cookie } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await answer.json()).toMatchObject({
      comments: [
        { body: "Waiting", status: "held", post: { slug: "fails-cal", title: "Fails" } },
        { body: "First", status: "approved" },
      ],
    });
    expect(((await (await call("/api/readers/me/comments", { headers: { cookie } })).json()) as { comments: unknown[] }).comments).toHaveLength(2);
    expect((await call("/api/readers/me/comments")).status).toBe(401);
  });

  it("ends after 30 days", async () => {
    const { cookie } = await signIn("old@example.com");
    clock.advance(readerSessionMs - 1000);
    expect((await call("/api/readers/me", { headers: { cookie } })).status).toBe(200);
    clock.advance(1000);
    expect((await call("/api/readers/me", { headers: { cookie } })).status).toBe(401);
  });

  it("is never an admin session: an admin call with only a reader cookie answers 401, also under the admin cookie's name", async () => {
    const { cookie } = await signIn("hal@example.com");
    expect((await call("/api/newsletter/subscribers", { headers: { cookie } })).status).toBe(401);
    const asAdminName = cookie.replace(/^nf_reader=/, "nf_session=");
    expect((await call("/api/newsletter/subscribers", { headers: { cookie: asAdminName } })).status).toBe(401);
    expect(await (await call("/api/auth/session", { headers: { cookie } })).json()).toMatchObject({ authenticated: false });
    // And an admin session is no reader.
    const admin = await app.adminHeaders();
    expect((await call("/api/readers/me", { headers: admin })).status).toBe(401);
  });

  it("lets the owner sign a reader out everywhere", async () => {
    const { id, cookie } = await signIn("ivy@example.com");
    expect((await post(`/api/readers/${String(id)}/sign-out`, {}, { cookie })).status).toBe(401);
    const ended = await post(`/api/readers/${String(id)}/sign-out`, {}, await app.adminHeaders());
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({ ended: 1 });
    expect((await call("/api/readers/me", { headers: { cookie } })).status).toBe(401);
  });

  it("exports the reader's data with their sessions but no secret, and erases them", async () => {
    const { id, cookie } = await signIn("jo@example.com");
    await call("/api/readers/me", {
      method: "PUT",
      headers: { cookie, origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify({ name: "Jo" }),
    });
    const exported = await call("/api/readers/me/export", { headers: { cookie } });
    expect(exported.status).toBe(200);
    const text = await exported.text();
    const data = JSON.parse(text) as { subscriber: { displayName: string }; readerSessions: unknown[]; readerSignIns: unknown[] };
    expect(data.subscriber.displayName).toBe("Jo");
    expect(data.readerSessions).toHaveLength(1);
    expect(data.readerSignIns).toHaveLength(1);
    const [session] = await rows<{ token_hash: string }>("SELECT token_hash FROM reader_sessions WHERE subscriber_id = $1", [id]);
    expect(text).not.toContain(session?.token_hash);
    expect(text).not.toContain(cookie.split("=")[1]);
    const ownerExport = await call(`/api/newsletter/subscribers/${String(id)}/export`, { headers: await app.adminHeaders() });
    expect(JSON.parse(await ownerExport.text())).toMatchObject({ readerSessions: [expect.any(Object)] });
    // Erase needs the same origin, like every change.
    expect((await call("/api/readers/me", { method: "DELETE", headers: { cookie, origin: "https://evil.example" } })).status).toBe(403);
    const erased = await call("/api/readers/me", { method: "DELETE", headers: { cookie, origin: testOrigin } });
    expect(erased.status).toBe(204);
    expect(erased.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    for (const table of ["subscribers WHERE id = $1", "reader_sessions WHERE subscriber_id = $1", "reader_sign_ins WHERE subscriber_id = $1"]) {
      expect(await rows(`SELECT 1 FROM ${table}`, [id])).toHaveLength(0);
    }
    expect((await call("/api/readers/me", { headers: { cookie } })).status).toBe(401);
  });
});
