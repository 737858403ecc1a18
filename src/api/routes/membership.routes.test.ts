import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPostNewsletter } from "../../core/newsletter/newsletter-sends.ts";
import { createReaderSession } from "../../core/readers/reader-sessions.ts";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { fakeStripeKey, fakeWebhookSecret, startFakeStripe, type FakeStripe, type SignedEvent } from "../../../tests/support/fake-stripe.ts";
import { multipartBody } from "../../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { readerCookie } from "../session-cookie.ts";

/** Issue 47 point 4: the supporter membership against the fake Stripe, with events signed by the `stripe` library. */
describe("the supporter membership", () => {
  let app: TestApp;
  let stripe: FakeStripe;
  const clock = createFakeClock(new Date("2026-05-04T10:00:00Z"));
  const json = { origin: testOrigin, "content-type": "application/json" };
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  beforeAll(async () => {
    stripe = await startFakeStripe({ now: clock.now });
    app = await createTestApp({
      clock,
      env: { STRIPE_SECRET_KEY: fakeStripeKey, STRIPE_WEBHOOK_SECRET: fakeWebhookSecret, STRIPE_API_URL: stripe.url },
    });
  });
  afterAll(async () => {
    await app.close();
    await stripe.stop();
  });

  const post = (signed: Pick<SignedEvent, "payload" | "header">) =>
    app.call("/api/stripe/webhook", {
      method: "POST",
      body: signed.payload,
      headers: { "content-type": "application/json", "stripe-signature": signed.header },
    });
  const deliver = async (...events: SignedEvent[]) => {
    for (const event of events) expect((await post(event)).status).toBe(204);
  };
  const checkout = (body: unknown, headers: Record<string, string> = {}) =>
    app.call("/api/checkout", { method: "POST", body: JSON.stringify(body), headers: { ...json, ...headers } });
  const setSetting = async (key: string, value: string) => {
    const answer = await app.call(`/api/site-settings/${key}`, {
      method: "PUT",
      headers: { ...(await app.adminHeaders()), "content-type": "application/json" },
      body: JSON.stringify({ value }),
    });
    expect(answer.status).toBe(200);
  };
  async function join(email: string, interval: "month" | "year" = "month"): Promise<string> {
    const answer = await checkout({ kind: "membership", interval, email });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { url: string }).url.split("/").pop() ?? "";
  }
  const supporter = async (sessionId: string) => {
    const subscription = stripe.sessions.get(sessionId)?.subscription ?? "";
    const { rows } = await app.deps.db.query<{ status: string; ended: boolean; interval: string; amount: number }>(
      "SELECT status, ended_at IS NOT NULL AS ended, interval, amount FROM supporters WHERE subscription_id = $1",
      [subscription],
    );
    return rows[0];
  };
  const audience = async (segment: string) => {
    const answer = await app.call("/api/newsletter/audience", {
      method: "POST",
      headers: { ...(await app.adminHeaders()), "content-type": "application/json" },
      body: JSON.stringify({ segment }),
    });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { count: number }).count;
  };
  const tagged = async (email: string) =>
    (
      await app.deps.db.query(
        `SELECT 1 FROM subscriber_tag_assignments a JOIN subscriber_tags t ON t.id = a.subscriber_tag_id JOIN subscribers s ON s.id = a.subscriber_id
          WHERE t.slug = 'supporter' AND s.email = $1`,
        [email],
      )
    ).rows.length === 1;
  const subscriber = async (email: string) =>
    Number(
      (await app.deps.db.query<{ id: number }>("INSERT INTO subscribers (email, status) VALUES ($1, 'active') RETURNING id", [email])).rows[0]?.id,
    );
  async function signedIn(email: string): Promise<string> {
    const { rows } = await app.deps.db.query<{ id: number }>("SELECT id FROM subscribers WHERE email = $1", [email]);
    const { token } = await createReaderSession(app.deps, Number(rows[0]?.id));
    return readerCookie(new Request(`${testOrigin}/`), token).split(";")[0] ?? "";
  }
  async function pricedResource(price: string): Promise<number> {
    const file = new File(
      [await readFile(new URL("../../../netlify/local/demo-content/files/investor-pitch-checklist.pdf", import.meta.url))],
      "a.pdf",
    );
    const { body, contentType } = await multipartBody({ title: "Data pack", description: "Numbers.", category: "Tools", file, price });
    const created = await app.call("/api/downloads", {
      method: "POST",
      body,
      headers: { ...(await app.adminHeaders()), "content-type": contentType },
    });
    expect(created.status).toBe(201);
    return ((await created.json()) as { id: number }).id;
  }

  it("is off until the owner sets a price, and asks Stripe for a subscription at the stored price, not the browser's", async () => {
    expect((await checkout({ kind: "membership", interval: "month" })).status).toBe(404);
    await setSetting("membership_monthly_price", "500");
    expect((await checkout({ kind: "membership", interval: "year" })).status).toBe(404);
    expect((await checkout({ kind: "membership" })).status).toBe(400);
    const refused = await app.call("/api/site-settings/membership_yearly_price", {
      method: "PUT",
      headers: { ...(await app.adminHeaders()), "content-type": "application/json" },
      body: JSON.stringify({ value: "12.50" }),
    });
    expect(refused.status).toBe(400);
    await setSetting("membership_yearly_price", "4800");

    const answer = await checkout({ kind: "membership", interval: "year", amount: 100, email: "Ann@Example.com" });
    expect(answer.status).toBe(200);
    expect(stripe.calls.at(-1)?.form).toMatchObject({
      mode: "subscription",
      "line_items[0][price_data][unit_amount]": "4800",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][recurring][interval]": "year",
      "subscription_data[metadata][kind]": "membership",
      customer_email: "ann@example.com",
    });
    // Abandoned: nothing is recorded.
    expect((await app.deps.db.query("SELECT 1 FROM supporters")).rows).toHaveLength(0);
  });

  it("creates, renews and then lapses a membership only when Stripe ends it, once per event", async () => {
    await subscriber("bea@example.com");
    const sessionId = await join("bea@example.com");
    const paid = stripe.pay(sessionId);
    const created = stripe.subscriptionEvent(sessionId, "created");
    await deliver(paid, created, paid, created);
    expect(await supporter(sessionId)).toEqual({ status: "active", ended: false, interval: "month", amount: 500 });
    expect(await tagged("bea@example.com")).toBe(true);
    expect(await audience("supporters")).toBe(1);
    expect(await audience("NOT supporters")).toBe(0);

    // One receipt, with the "manage your membership" link.
    const [receipt] = await app.mail.waitFor(1);
    expect(receipt?.to).toEqual(["bea@example.com"]);
    expect(receipt?.text).toContain("Supporter membership (monthly): $5.00");
    expect(receipt?.text).toMatch(/Manage your membership/);

    // The first invoice is the Checkout's payment; a renewal is a second payment (and receipt), once.
    const first = stripe.invoiceEvent(sessionId, "invoice.paid", { billingReason: "subscription_create" });
    clock.advance(30 * 86_400_000);
    const renewal = stripe.invoiceEvent(sessionId, "invoice.paid");
    await deliver(stripe.sign(first.event), renewal, renewal);
    const { rows: payments } = await app.deps.db.query<{ item_title: string; amount: number }>(
      "SELECT item_title, amount FROM payments WHERE email = 'bea@example.com' ORDER BY id",
    );
    expect(payments).toEqual([
      { item_title: "Supporter membership (monthly)", amount: 500 },
      { item_title: "Supporter membership (renewal)", amount: 500 },
    ]);
    await app.deliverMail();
    expect(app.mail.to("bea@example.com")).toHaveLength(2);

    // A failed renewal: Stripe retries and says past_due. The benefit holds.
    clock.advance(30 * 86_400_000);
    await deliver(stripe.invoiceEvent(sessionId, "invoice.payment_failed"), stripe.subscriptionEvent(sessionId, "updated", { status: "past_due" }));
    expect(await supporter(sessionId)).toMatchObject({ status: "past_due", ended: false });
    expect(await tagged("bea@example.com")).toBe(true);
    expect(await audience("supporters")).toBe(1);

    // Stripe gives up (unpaid): the benefit ends now, and not before.
    clock.advance(1000);
    await deliver(stripe.subscriptionEvent(sessionId, "updated", { status: "unpaid" }));
    expect(await supporter(sessionId)).toMatchObject({ status: "unpaid", ended: true });
    expect(await tagged("bea@example.com")).toBe(false);
    expect(await audience("supporters")).toBe(0);

    // They pay after all: Stripe says active again, and the benefit is back.
    clock.advance(1000);
    await deliver(stripe.subscriptionEvent(sessionId, "updated", { status: "active" }));
    expect(await supporter(sessionId)).toMatchObject({ status: "active", ended: false });
    expect(await tagged("bea@example.com")).toBe(true);
    // A whole membership's life in one test: about 20 signed events and their checks (6 s alone, more on a busy machine).
  }, 90_000);

  it("ends on cancel, and a late, older event neither revives a canceled membership nor rolls a newer one back", async () => {
    await subscriber("cy@example.com");
    const canceled = await join("cy@example.com", "year");
    const paid = stripe.pay(canceled);
    const active = stripe.subscriptionEvent(canceled, "updated", { status: "active", created: nowSeconds() - 5 });
    await deliver(paid);
    clock.advance(1000);
    await deliver(stripe.subscriptionEvent(canceled, "deleted"));
    expect(await supporter(canceled)).toMatchObject({ status: "canceled", ended: true });
    expect(await tagged("cy@example.com")).toBe(false);
    await deliver(active, stripe.sign(active.event));
    expect(await supporter(canceled)).toMatchObject({ status: "canceled", ended: true });

    // Out of order the other way: the subscription's events before the Checkout's, the older last.
    const early = await join("dee@example.com");
    const completed = stripe.pay(early);
    const incomplete = stripe.subscriptionEvent(early, "created", { status: "incomplete", created: nowSeconds() - 10 });
    const activated = stripe.subscriptionEvent(early, "updated", { status: "active", created: nowSeconds() - 5 });
    const pastDue = stripe.subscriptionEvent(early, "updated", { status: "past_due", created: nowSeconds() - 1 });
    await deliver(pastDue, activated, incomplete, completed);
    expect(await supporter(early)).toMatchObject({ status: "past_due", ended: false, interval: "month", amount: 500 });
    const { rows } = await app.deps.db.query<{ email: string }>("SELECT email FROM supporters WHERE subscription_id = $1", [
      stripe.sessions.get(early)?.subscription,
    ]);
    expect(rows).toEqual([{ email: "dee@example.com" }]);
  });

  it("gives a signed-in supporter every paid resource free, while the membership holds", async () => {
    const resourceId = await pricedResource("2900");
    await subscriber("eve@example.com");
    const sessionId = await join("eve@example.com");
    await deliver(stripe.pay(sessionId));
    const cookie = await signedIn("eve@example.com");
    const calls = stripe.calls.length;
    const answer = await checkout({ kind: "resource", resourceId }, { cookie });
    expect(answer.status).toBe(200);
    const { url } = (await answer.json()) as { url: string };
    expect(stripe.calls.length).toBe(calls);
    expect(url).toMatch(new RegExp(`^http://localhost:8888/api/downloads/${String(resourceId)}/file\\?`));
    const path = url.replace("http://localhost:8888", "");
    expect((await app.call(path)).status).toBe(200);

    // Not signed in, or signed in but no supporter: Stripe's Checkout at the price.
    expect((await checkout({ kind: "resource", resourceId })).status).toBe(200);
    expect(stripe.calls.at(-1)?.form).toMatchObject({ "line_items[0][price_data][unit_amount]": "2900" });
    await subscriber("fay@example.com");
    const other = await checkout({ kind: "resource", resourceId }, { cookie: await signedIn("fay@example.com") });
    expect(((await other.json()) as { url: string }).url.startsWith(stripe.url)).toBe(true);

    // The account page's section: the membership and its payment.
    const mine = await app.call("/api/readers/me/payments", { headers: { cookie } });
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({
      membership: { status: "active", active: true, interval: "month", amount: 500, currency: "usd" },
      payments: [{ kind: "membership", status: "paid", amount: 500, itemTitle: "Supporter membership (monthly)", downloadUrl: null }],
    });
    expect((await app.call("/api/readers/me/payments")).status).toBe(401);

    // Canceled: the free link stops, and the next ask goes to Checkout.
    clock.advance(1000);
    await deliver(stripe.subscriptionEvent(sessionId, "deleted"));
    expect((await app.call(path)).status).toBe(403);
    const after = await checkout({ kind: "resource", resourceId }, { cookie });
    expect(((await after.json()) as { url: string }).url.startsWith(stripe.url)).toBe(true);
  });

  it("opens the Customer Portal for a signed-in supporter or with the receipt's signed token, and for nobody else", async () => {
    await subscriber("gil@example.com");
    app.mail.clear();
    const sessionId = await join("gil@example.com");
    await deliver(stripe.pay(sessionId));
    const customer = stripe.sessions.get(sessionId)?.customer ?? "";
    const portal = (body: unknown, headers: Record<string, string> = {}) =>
      app.call("/api/billing-portal", { method: "POST", body: JSON.stringify(body), headers: { ...json, ...headers } });

    const bySession = await portal({}, { cookie: await signedIn("gil@example.com") });
    expect(bySession.status).toBe(200);
    expect(await bySession.json()).toEqual({ url: `${stripe.url}/portal/${customer}` });
    expect(stripe.calls.at(-1)?.form).toMatchObject({ customer, return_url: `${testOrigin}/account/` });

    const [receipt] = await app.mail.waitFor(1);
    const token = /#manage=([^\s)\]"<]+)/.exec(receipt?.text ?? "")?.[1] ?? "";
    expect(token.startsWith(`${customer}.`)).toBe(true);
    const byToken = await portal({ token });
    expect(byToken.status).toBe(200);
    expect(await byToken.json()).toEqual({ url: `${stripe.url}/portal/${customer}` });

    // A token for another customer, an expired one, no session, a reader who never joined.
    expect((await portal({ token: token.replace(customer, "cus_test_someoneelse") })).status).toBe(400);
    clock.advance(366 * 86_400_000);
    expect((await portal({ token })).status).toBe(400);
    expect((await portal({})).status).toBe(401);
    await subscriber("hal@example.com");
    expect((await portal({}, { cookie: await signedIn("hal@example.com") })).status).toBe(404);
  });

  it("signs a bought resource's link for the owner's purchase_link_days", async () => {
    const resourceId = await pricedResource("1200");
    await setSetting("purchase_link_days", "2");
    const answer = await checkout({ kind: "resource", resourceId, email: "max@example.com" });
    const sessionId = ((await answer.json()) as { url: string }).url.split("/").pop() ?? "";
    await deliver(stripe.pay(sessionId));
    const status = (await (await app.call(`/api/checkout/status?session=${sessionId}`)).json()) as { downloadUrl: string };
    await app.deliverMail();
    const [receipt] = app.mail.to("max@example.com");
    expect(receipt?.text).toContain("Your download link works for 2 days");
    clock.advance(2 * 86_400_000 - 1000);
    expect((await app.call(status.downloadUrl)).status).toBe(200);
    clock.advance(2000);
    expect((await app.call(status.downloadUrl)).status).not.toBe(200);
    await setSetting("purchase_link_days", "");
  });

  it("ends a newsletter with one tip link while payments are on, and none while they are off", async () => {
    const post = {
      id: 1,
      title: "A post",
      content: "<p>Hello</p>",
      excerpt: null,
      email_subject: null,
      published: true,
      slug: "a-post",
      featured_image_key: null,
      featured_image_alt: null,
    };
    const tipLink = /<a[^>]+href="http:\/\/localhost:8888\/#support-home-heading"[^>]*>support this work<\/a>/g;
    expect((await renderPostNewsletter(app.deps, post)).html.match(tipLink)).toHaveLength(1);
    expect((await renderPostNewsletter({ ...app.deps, payments: undefined }, post)).html).not.toMatch(tipLink);
  });

  it("puts the membership in the person's export, and the erase keeps it for accounting without the address", async () => {
    const id = await subscriber("lou@example.com");
    const sessionId = await join("lou@example.com", "year");
    await deliver(stripe.pay(sessionId));
    const exported = await app.call(`/api/newsletter/subscribers/${String(id)}/export`, { headers: await app.adminHeaders() });
    expect(((await exported.json()) as { memberships: unknown[] }).memberships).toEqual([
      {
        status: "active",
        interval: "year",
        amount: 4800,
        currency: "usd",
        startedAt: clock.now().toISOString(),
        endedAt: null,
        currentPeriodEnd: null,
      },
    ]);
    expect((await app.call(`/api/newsletter/subscribers/${String(id)}`, { method: "DELETE", headers: await app.adminHeaders() })).status).toBe(204);
    const { rows } = await app.deps.db.query("SELECT email, amount FROM supporters WHERE subscription_id = $1", [
      stripe.sessions.get(sessionId)?.subscription,
    ]);
    expect(rows).toEqual([{ email: null, amount: 4800 }]);
  });

  it("sums supporters (active, monthly recurring revenue, churn) and revenue per source in the Revenue panel", async () => {
    await app.deps.db.exec("DELETE FROM payments; DELETE FROM supporters");
    const ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
    const ip = "198.51.100.77";
    const beacon = await app.handler(
      new Request(`${testOrigin}/api/events`, {
        method: "POST",
        body: JSON.stringify({ url: `${testOrigin}/`, referrer: "https://news.ycombinator.com/" }),
        headers: { "content-type": "text/plain;charset=UTF-8", origin: testOrigin, "user-agent": ua },
      }),
      { ip },
    );
    expect(beacon.status).toBe(202);
    const fromHome = await app.handler(
      new Request(`${testOrigin}/api/checkout`, {
        method: "POST",
        body: JSON.stringify({ kind: "membership", interval: "year", email: "ivy@example.com" }),
        headers: { ...json, "user-agent": ua, referer: `${testOrigin}/` },
      }),
      { ip },
    );
    const yearly = ((await fromHome.json()) as { url: string }).url.split("/").pop() ?? "";
    const monthly = await join("jo@example.com");
    const lapsed = await join("kit@example.com");
    await deliver(stripe.pay(yearly), stripe.pay(monthly), stripe.pay(lapsed));
    clock.advance(1000);
    await deliver(stripe.subscriptionEvent(lapsed, "deleted"));
    clock.advance(30 * 86_400_000);
    await deliver(stripe.invoiceEvent(yearly, "invoice.paid", { amount: 4800 }));

    const day = clock.now().toISOString().slice(0, 10);
    const answer = await app.call("/api/revenue", { headers: await app.adminHeaders() });
    expect(answer.status).toBe(200);
    // 4800 / 12 + 500; the yearly's first payment and its renewal come from Hacker News, by the home page.
    expect(await answer.json()).toMatchObject({
      supporters: { active: 2, mrr: 900, churned: 1 },
      bySource: [{ source: "news.ycombinator.com", amount: 9600 }],
      byPost: [{ path: "/", amount: 9600 }],
    });
    const today = await app.call(`/api/revenue?from=${day}&to=${day}`, { headers: await app.adminHeaders() });
    expect(((await today.json()) as { supporters: unknown }).supporters).toEqual({ active: 2, mrr: 900, churned: 0 });
  });
});
