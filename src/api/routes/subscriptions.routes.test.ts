import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { createTestApp, testMailFrom, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { smtpMailer } from "../../adapters/smtp-mailer.ts";
import { deliverQueuedMail } from "../../core/mail/outbox-delivery.ts";
import { downloadInvitationWording, newsletterConsentWording } from "../../core/subscribers/consent-wording.ts";
import { subscribe as subscribeService } from "../../core/subscribers/subscribers.service.ts";

let app: TestApp;
let clock: FakeClock;
let ip = 0;
/** The sends the calls handed to `waitUntil` (as on Netlify), until `mailSettled` takes them. */
let handedOff: Promise<unknown>[] = [];

beforeAll(async () => {
  clock = createFakeClock();
  app = await createTestApp({ now: () => clock.now() });
});
afterAll(async () => {
  await app.close();
});

/** Each call from its own client address, so the signup rate limit never gets in the way. */
const call = (path: string, init?: RequestInit) => {
  ip += 1;
  return app.handler(new Request(new URL(path, testOrigin), init), {
    ip: `198.18.${String(ip >> 8)}.${String(ip & 255)}`,
    waitUntil: (work) => handedOff.push(work),
  });
};

/** Resolves once every email the calls so far started is in the sink or has failed: a missing one was never sent. */
async function mailSettled(): Promise<void> {
  const work = handedOff;
  handedOff = [];
  await Promise.all(work);
}

const subscribe = (email: string) =>
  call("/api/newsletter/subscribe", {
    method: "POST",
    headers: { origin: testOrigin, "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });

/** The page's own button: a browser form post from the site (Origin is the site's). */
const pressButton = (url: string) =>
  call(url, {
    method: "POST",
    headers: { origin: testOrigin, "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" },
    body: "",
  });

/** A mail provider's RFC 8058 one-click POST: no cookie, no Origin. */
const oneClick = (url: string) =>
  call(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });

async function mailsTo(address: string, count: number): Promise<CaughtMail[]> {
  await mailSettled();
  expect(app.mail.to(address).length).toBeGreaterThanOrEqual(count);
  return app.mail.to(address);
}

/** The absolute link to `path` in an email's HTML (and the same in its text part). */
function linkIn(mail: CaughtMail, path: string): string {
  const pattern = new RegExp(`${testOrigin}${path.replace(/[/?]/g, "\\$&")}\\?token=[\\w.-]+`);
  const link = pattern.exec(mail.html)?.[0];
  if (!link) throw new Error(`no ${path} link in "${mail.subject}"`);
  expect(mail.text).toContain(link);
  return link;
}

const confirmLink = (mail: CaughtMail) => linkIn(mail, "/api/newsletter/confirm");
const pathOf = (link: string) => link.slice(testOrigin.length);

interface Row {
  id: number;
  status: string;
  confirmed_at: Date | null;
  unsubscribed_at: Date | null;
  confirmation_sent_at: Date | null;
}
async function row(email: string): Promise<Row | undefined> {
  const { rows } = await app.deps.db.query<Row>(
    "SELECT id, status, confirmed_at, unsubscribed_at, confirmation_sent_at FROM subscribers WHERE email = $1",
    [email],
  );
  return rows[0];
}
async function consents(email: string) {
  const { rows } = await app.deps.db.query<{ source: string; wording: string; asked_at: Date; confirmed_at: Date | null }>(
    "SELECT c.source, c.wording, c.asked_at, c.confirmed_at FROM subscriber_consents c JOIN subscribers s ON s.id = c.subscriber_id WHERE s.email = $1 ORDER BY c.id",
    [email],
  );
  return rows;
}
async function sentRecords(email: string) {
  const { rows } = await app.deps.db.query<{ kind: string; subject: string; message_id: string }>(
    "SELECT e.kind, e.subject, e.message_id FROM subscriber_emails e JOIN subscribers s ON s.id = e.subscriber_id WHERE s.email = $1 ORDER BY e.id",
    [email],
  );
  return rows;
}

/** Subscribes and confirms `email`; answers the welcome email. */
async function activate(email: string): Promise<CaughtMail> {
  const before = app.mail.to(email).length;
  await subscribe(email);
  const [confirmation] = (await mailsTo(email, before + 1)).slice(before);
  expect((await pressButton(pathOf(confirmLink(confirmation as CaughtMail)))).status).toBe(200);
  return (await mailsTo(email, before + 2))[before + 1] as CaughtMail;
}

describe("the subscriber lifecycle", () => {
  it("subscribe → confirmation email → GET/HEAD change nothing → POST confirms → welcome with one-click headers → one-click unsubscribes", async () => {
    const email = "lifecycle@example.com";
    const subscribed = await subscribe("  LifeCycle@Example.com ");
    expect(subscribed.status).toBe(200);
    expect(await subscribed.json()).toEqual({ subscribed: true });

    const [confirmation] = await mailsTo(email, 1);
    if (!confirmation) throw new Error("no confirmation");
    expect(confirmation.subject).toBe("Confirm your subscription to No Filter");
    expect(confirmation.header("List-Unsubscribe")).toBeUndefined();
    expect(await row(email)).toMatchObject({ status: "pending", confirmed_at: null, confirmation_sent_at: clock.now() });
    expect(await consents(email)).toEqual([{ source: "newsletter", wording: newsletterConsentWording, asked_at: clock.now(), confirmed_at: null }]);

    const link = pathOf(confirmLink(confirmation));
    const page = await call(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("x-robots-tag")).toBe("noindex");
    const html = await page.text();
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain(`<form method="post" action="${link.replace(/&/g, "&amp;")}">`);
    expect(html).toContain('<button type="submit">Confirm subscription</button>');
    expect(html).not.toContain("<script");
    expect((await call(link, { method: "HEAD" })).status).toBe(200);
    expect(await row(email)).toMatchObject({ status: "pending", confirmed_at: null });

    clock.advance(60_000);
    const confirmed = await pressButton(link);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("You&#39;re subscribed!");
    expect(await row(email)).toMatchObject({ status: "active", confirmed_at: clock.now() });
    expect((await consents(email))[0]?.confirmed_at).toEqual(clock.now());

    const [, welcome] = await mailsTo(email, 2);
    if (!welcome) throw new Error("no welcome");
    expect(welcome.subject).toBe("You're in: welcome to No Filter");
    const unsubscribe = linkIn(welcome, "/api/newsletter/unsubscribe");
    expect(welcome.header("List-Unsubscribe")).toBe(`<${unsubscribe}>`);
    expect(welcome.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    // Opaque: no kind, no row number (random, fixed when the email was queued).
    expect(welcome.messageId).toMatch(/^<[\w-]{24}@localhost>$/);
    expect(await sentRecords(email)).toEqual([
      { kind: "confirmation", subject: confirmation.subject, message_id: confirmation.messageId },
      // The welcome is the welcome sequence's first step (issue 31).
      { kind: "sequence", subject: welcome.subject, message_id: welcome.messageId },
    ]);

    // Pressed twice (or reloaded): nothing more happens.
    const again = await pressButton(link);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("You&#39;re already subscribed");
    expect(app.mail.to(email)).toHaveLength(2);

    const unsubscribePage = await call(pathOf(unsubscribe));
    expect(unsubscribePage.status).toBe(200);
    expect(await unsubscribePage.text()).toContain(
      '<input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button>',
    );
    expect((await call(pathOf(unsubscribe), { method: "HEAD" })).status).toBe(200);
    expect((await row(email))?.status).toBe("active");

    clock.advance(60_000);
    const left = await oneClick(pathOf(unsubscribe));
    expect(left.status).toBe(200);
    expect(left.headers.get("location")).toBeNull();
    expect(await left.text()).toContain("You&#39;re unsubscribed");
    expect(await row(email)).toMatchObject({ status: "unsubscribed", unsubscribed_at: clock.now() });
    const listed = (await (await call("/api/newsletter/subscribers", { headers: await app.adminHeaders() })).json()) as {
      email: string;
      status: string;
      isActive: boolean;
    }[];
    expect(listed.find((item) => item.email === email)).toMatchObject({ status: "unsubscribed", isActive: false });

    // A second one-click (providers retry) is still a 200.
    expect((await oneClick(pathOf(unsubscribe))).status).toBe(200);
  });

  it("an active address gets no email and stays as it is", async () => {
    const email = "already-active@example.com";
    await activate(email);
    clock.advance(60 * 60 * 1000);
    expect((await subscribe(email)).status).toBe(200);
    expect((await row(email))?.status).toBe("active");
    expect(await consents(email)).toHaveLength(1);
    await mailSettled();
    expect(app.mail.to(email)).toHaveLength(2);
    expect((await sentRecords(email)).map((sent) => sent.kind)).toEqual(["confirmation", "sequence"]);
  });

  it("sends at most one confirmation per address per 10 minutes", async () => {
    const email = "bomb-target@example.com";
    await Promise.all([subscribe(email), subscribe(email), subscribe(email)]);
    clock.advance(9 * 60 * 1000);
    await subscribe(email);
    await mailSettled();
    expect(app.mail.to(email)).toHaveLength(1);
    expect(await sentRecords(email)).toHaveLength(1);
    expect(await consents(email)).toHaveLength(1);
    clock.advance(60 * 1000);
    await subscribe(email);
    const mails = await mailsTo(email, 2);
    expect(mails.map((mail) => mail.subject)).toEqual(["Confirm your subscription to No Filter", "Confirm your subscription to No Filter"]);
    // Both links name the one open consent record (`c.<subscriber>.<consent>.<expires>.<signature>`).
    const consentOf = (mail: CaughtMail) => new URL(confirmLink(mail)).searchParams.get("token")?.split(".").slice(1, 3);
    expect(consentOf(mails[0] as CaughtMail)).toEqual(consentOf(mails[1] as CaughtMail));
  });

  it("an unsubscribed address that subscribes again is pending until it confirms again", async () => {
    const email = "comes-back@example.com";
    const welcome = await activate(email);
    await oneClick(pathOf(linkIn(welcome, "/api/newsletter/unsubscribe")));
    expect((await row(email))?.status).toBe("unsubscribed");
    clock.advance(10 * 60 * 1000);
    await subscribe(email);
    expect((await row(email))?.status).toBe("pending");
    const mails = await mailsTo(email, 3);
    const second = mails[2] as CaughtMail;
    expect(second.subject).toBe("Confirm your subscription to No Filter");
    expect(await consents(email)).toMatchObject([{ source: "newsletter" }, { source: "newsletter", confirmed_at: null }]);
    // The first confirmation link was used before they left: it does not bring them back.
    const used = await pressButton(pathOf(confirmLink(mails[0] as CaughtMail)));
    expect(used.status).toBe(403);
    expect(await used.text()).toContain("This link has already been used");
    expect((await row(email))?.status).toBe("pending");
    expect((await pressButton(pathOf(confirmLink(second)))).status).toBe(200);
    expect((await row(email))?.status).toBe("active");
  });
});

describe("tokens", () => {
  it("a forged, altered, cut or misused token is a 4xx page and changes nothing", async () => {
    const email = "tamper@example.com";
    await subscribe(email);
    const [confirmation] = await mailsTo(email, 1);
    const link = pathOf(confirmLink(confirmation as CaughtMail));
    const token = new URL(link, testOrigin).searchParams.get("token") ?? "";
    const [kind, subscriberId, consentId, expires, signature] = token.split(".");
    const flipped = `${signature?.slice(0, -1) ?? ""}${signature?.endsWith("A") ? "B" : "A"}`;
    const unsubscribeToken = `u.${subscriberId ?? ""}.${signature ?? ""}`;
    const forgeries = [
      `${kind ?? ""}.${String(Number(subscriberId) + 1)}.${consentId ?? ""}.${expires ?? ""}.${signature ?? ""}`,
      `${kind ?? ""}.${subscriberId ?? ""}.${consentId ?? ""}.${String(Number(expires) + 86_400)}.${signature ?? ""}`,
      `${kind ?? ""}.${subscriberId ?? ""}.${consentId ?? ""}.${expires ?? ""}.${flipped}`,
      token.slice(0, -5),
      "",
      unsubscribeToken,
    ];
    for (const forged of forgeries) {
      const path = `/api/newsletter/confirm?token=${encodeURIComponent(forged)}`;
      const page = await call(path);
      expect(page.status).toBe(403);
      expect(await page.text()).toContain("This link isn&#39;t valid");
      expect((await pressButton(path)).status).toBe(403);
      expect((await oneClick(`/api/newsletter/unsubscribe?token=${encodeURIComponent(forged)}`)).status).toBe(403);
    }
    expect((await call("/api/newsletter/confirm")).status).toBe(403);
    expect((await oneClick("/api/newsletter/unsubscribe")).status).toBe(403);
    expect(await row(email)).toMatchObject({ status: "pending", confirmed_at: null, unsubscribed_at: null });
    expect(app.mail.to(email)).toHaveLength(1);
  });

  it("a confirmation link expires after 7 days with a page that offers to subscribe again", async () => {
    const email = "slow-reader@example.com";
    await subscribe(email);
    const [confirmation] = await mailsTo(email, 1);
    const link = pathOf(confirmLink(confirmation as CaughtMail));
    clock.advance(7 * 24 * 60 * 60 * 1000);
    const page = await call(link);
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).toContain("This link has expired");
    expect(html).toContain('href="/#newsletter"');
    expect((await pressButton(link)).status).toBe(403);
    expect((await row(email))?.status).toBe("pending");
  });

  it("an erased subscriber's links answer 404", async () => {
    const email = "erased@example.com";
    const welcome = await activate(email);
    const unsubscribe = pathOf(linkIn(welcome, "/api/newsletter/unsubscribe"));
    await app.deps.db.query("DELETE FROM subscribers WHERE email = $1", [email]);
    expect((await call(unsubscribe)).status).toBe(404);
    expect((await oneClick(unsubscribe)).status).toBe(404);
    expect((await pressButton(pathOf(confirmLink(app.mail.to(email)[0] as CaughtMail)))).status).toBe(404);
  });

  it("the confirm button must come from the site; the one-click unsubscribe need not", async () => {
    const email = "cross-site@example.com";
    await subscribe(email);
    const [confirmation] = await mailsTo(email, 1);
    const link = pathOf(confirmLink(confirmation as CaughtMail));
    const crossSite = await call(link, { method: "POST", headers: { origin: "https://evil.example" } });
    expect(crossSite.status).toBe(403);
    // The person lands on a page, as from a broken link, never on JSON.
    expect(crossSite.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await crossSite.text()).toMatch(/This link isn(&#39;|&#x27;|')t valid/);
    expect((await call(link, { method: "POST" })).status).toBe(403);
    expect((await row(email))?.status).toBe("pending");
  });
});

describe("when mail fails", () => {
  it("a signup while the SMTP server refuses connections is answered, kept, and delivered once the server is back", async () => {
    const email = "smtp-down@example.com";
    const down = smtpMailer("smtp://127.0.0.1:9", testMailFrom, { maxConnections: 1 });
    // Called as a request would, without waitUntil: the email is queued in the signup's transaction.
    await subscribeService(app.deps, { email, clientIp: "192.0.2.200" });
    // A refused connection is the provider's failure: the outbox pauses, the message stays pending, its try not counted.
    expect(await deliverQueuedMail({ ...app.deps, mail: down }, { concurrency: 1 })).toMatchObject({
      sent: 0,
      failed: 0,
      retried: 0,
      paused: expect.any(String) as string,
    });
    await down.close();
    expect(await row(email)).toMatchObject({ status: "pending", confirmation_sent_at: clock.now() });
    expect(app.mail.to(email)).toHaveLength(0);
    // The pause is over a minute later: delivered once, recorded once.
    clock.advance(60_000);
    expect(await app.deliverMail()).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(await app.deliverMail()).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(app.mail.to(email)).toHaveLength(1);
    expect(await sentRecords(email)).toEqual([
      { kind: "confirmation", subject: app.mail.to(email)[0]?.subject, message_id: app.mail.to(email)[0]?.messageId },
    ]);
  });
});

describe("the download email", () => {
  async function resource(): Promise<{ id: number; title: string }> {
    const form = new FormData();
    form.set("title", "Cash Flow Forecast");
    form.set("description", "Twelve months on one sheet.");
    form.set("category", "Templates");
    form.set(
      "file",
      new File(
        [
          await import("node:fs/promises").then((fs) =>
            fs.readFile(new URL("../../../netlify/local/demo-content/files/investor-pitch-checklist.pdf", import.meta.url)),
          ),
        ],
        "forecast.pdf",
      ),
    );
    const response = await call("/api/downloads", { method: "POST", headers: await app.adminHeaders(), body: form });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: number; title: string };
  }
  const request = (id: number, email: string) =>
    call(`/api/downloads/${String(id)}/request`, {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });

  it("a new requester is pending, invited, and gets the link by email; confirming from it makes them active", async () => {
    const { id } = await resource();
    const email = "new-reader@example.com";
    const response = await request(id, email);
    expect(response.status).toBe(200);
    const { downloadUrl } = (await response.json()) as { downloadUrl: string };
    const [mail] = await mailsTo(email, 1);
    if (!mail) throw new Error("no download email");
    expect(mail.subject).toBe("Your download: Cash Flow Forecast");
    // The emailed link names its recipient (r, signed with the rest); the answer's does not (decision 0055).
    expect(downloadUrl).not.toMatch(/[?&]r=/);
    expect(mail.html).toMatch(new RegExp(`${testOrigin}/api/downloads/${String(id)}/file\\?expires=\\d+&amp;signature=[\\w-]+&amp;r=\\d+"`));
    expect(mail.text).toContain(downloadInvitationWording);
    const unsubscribe = linkIn(mail, "/api/newsletter/unsubscribe");
    expect(mail.header("List-Unsubscribe")).toBe(`<${unsubscribe}>`);
    expect(mail.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(await row(email)).toMatchObject({ status: "pending" });
    expect(await consents(email)).toEqual([{ source: "download", wording: downloadInvitationWording, asked_at: clock.now(), confirmed_at: null }]);
    expect(await sentRecords(email)).toEqual([{ kind: "download", subject: mail.subject, message_id: mail.messageId }]);

    expect((await pressButton(pathOf(confirmLink(mail)))).status).toBe(200);
    expect((await row(email))?.status).toBe("active");
    expect((await mailsTo(email, 2))[1]?.subject).toBe("You're in: welcome to No Filter");
  });

  it("emails the same resource to an address at most once per 10 minutes", async () => {
    const first = await resource();
    const second = await resource();
    const email = "eager-reader@example.com";
    for (let i = 0; i < 3; i++) expect((await request(first.id, email)).status).toBe(200);
    expect((await request(second.id, email)).status).toBe(200);
    await mailsTo(email, 2);
    clock.advance(9 * 60 * 1000);
    expect((await request(first.id, email)).status).toBe(200);
    await mailSettled();
    expect(app.mail.to(email)).toHaveLength(2);
    expect(await sentRecords(email)).toHaveLength(2);
    clock.advance(60 * 1000);
    expect((await request(first.id, email)).status).toBe(200);
    expect(await mailsTo(email, 3)).toHaveLength(3);
  });

  it("an active requester stays active and is not invited; an unsubscribed one stays unsubscribed", async () => {
    const { id } = await resource();
    const active = "active-reader@example.com";
    await activate(active);
    expect((await request(id, active)).status).toBe(200);
    const download = (await mailsTo(active, 3))[2] as CaughtMail;
    expect(download.subject).toBe("Your download: Cash Flow Forecast");
    expect(download.html).not.toContain("/api/newsletter/confirm");
    expect((await row(active))?.status).toBe("active");
    expect(await consents(active)).toHaveLength(1);

    const gone = "left-reader@example.com";
    const welcome = await activate(gone);
    await oneClick(pathOf(linkIn(welcome, "/api/newsletter/unsubscribe")));
    expect((await request(id, gone)).status).toBe(200);
    const invitation = (await mailsTo(gone, 3))[2] as CaughtMail;
    expect(invitation.html).toContain("/api/newsletter/confirm");
    expect((await row(gone))?.status).toBe("unsubscribed");
  });
});

// The lifecycle's SQL (upserts, a locking join, a data-modifying CTE) on every server driver too.
describe.each(featureDatabaseTargets.filter((target) => target.driver !== "pglite"))("the lifecycle on $name", (target) => {
  let testDb: TestDatabase;
  let serverApp: TestApp;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    serverApp = await createTestApp({ db: testDb.db });
  });
  afterAll(async () => {
    await serverApp.close();
    await testDb.drop();
  });

  it("subscribe → confirm → one-click unsubscribe → subscribe again", async () => {
    const email = "server@example.com";
    const post = (path: string, headers: Record<string, string>, body: string) =>
      serverApp.handler(new Request(new URL(path, testOrigin), { method: "POST", headers, body }), { ip: "192.0.2.9" });
    const signup = () => post("/api/newsletter/subscribe", { origin: testOrigin, "content-type": "application/json" }, JSON.stringify({ email }));
    const status = async () =>
      (await testDb.db.query<{ status: string }>("SELECT status FROM subscribers WHERE email = $1", [email])).rows[0]?.status;
    expect((await signup()).status).toBe(200);
    const [confirmation] = await serverApp.mail.waitFor(1);
    expect((await post(pathOf(confirmLink(confirmation as CaughtMail)), { origin: testOrigin }, "")).status).toBe(200);
    expect(await status()).toBe("active");
    const [, welcome] = await serverApp.mail.waitFor(2);
    const oneClickPath = pathOf(linkIn(welcome as CaughtMail, "/api/newsletter/unsubscribe"));
    expect((await post(oneClickPath, { "content-type": "application/x-www-form-urlencoded" }, "List-Unsubscribe=One-Click")).status).toBe(200);
    expect(await status()).toBe("unsubscribed");
    expect((await signup()).status).toBe(200);
    expect(await status()).toBe("pending");
  });
});
