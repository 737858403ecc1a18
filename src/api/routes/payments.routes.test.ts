import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { fakeStripeKey, fakeWebhookSecret, startFakeStripe, type FakeStripe, type SignedEvent } from "../../../tests/support/fake-stripe.ts";
import { multipartBody, type FormFields } from "../../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";

const demoFiles = new URL("../../../netlify/local/demo-content/files/", import.meta.url);
const demoFile = async (name: string) => new File([await readFile(new URL(name, demoFiles))], name);

const json = { origin: testOrigin, "content-type": "application/json" };

async function upload(app: TestApp, method: "POST" | "PUT", path: string, form: FormFields): Promise<Response> {
  const { body, contentType } = await multipartBody(form);
  return app.call(path, { method, body, headers: { ...(await app.adminHeaders()), "content-type": contentType } });
}

interface Resource {
  id: number;
  price: number;
  currency: string;
}

async function createResource(app: TestApp, extra: FormFields = {}): Promise<Resource> {
  const response = await upload(app, "POST", "/api/downloads", {
    title: "Series A Financial Model",
    description: "The model behind a real round.",
    category: "Tools",
    file: await demoFile("investor-pitch-checklist.pdf"),
    ...extra,
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Resource;
}

const checkout = (app: TestApp, body: unknown) => app.call("/api/checkout", { method: "POST", body: JSON.stringify(body), headers: json });

describe("without Stripe set up, every paid feature is hidden", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it("answers 404 to checkout and the webhook, and the dashboard names what is missing", async () => {
    const started = await checkout(app, { kind: "tip", amount: 500 });
    expect(started.status).toBe(404);
    expect(await started.json()).toEqual({ error: "Payments are not set up on this site." });
    const event = await app.call("/api/stripe/webhook", { method: "POST", body: "{}", headers: { "stripe-signature": "t=1,v1=00" } });
    expect(event.status).toBe(404);
    const config = await app.call("/api/payments/config", { headers: await app.adminHeaders() });
    expect(await config.json()).toEqual({
      enabled: false,
      mode: null,
      missing: ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"],
      docs: "docs/payments.md",
    });
  });

  it("still stores a resource's price, and a free resource works as before", async () => {
    const priced = await createResource(app, { price: "1500", currency: "EUR" });
    expect(priced).toMatchObject({ price: 1500, currency: "eur" });
    const free = await createResource(app);
    expect(free).toMatchObject({ price: 0, currency: "usd" });
    const request = await app.call(`/api/downloads/${String(free.id)}/request`, {
      method: "POST",
      body: JSON.stringify({ email: "a@example.com" }),
      headers: json,
    });
    expect(request.status).toBe(200);
  });
});

describe("payments against the fake Stripe", () => {
  let app: TestApp;
  let stripe: FakeStripe;
  const clock = createFakeClock(new Date("2026-03-02T10:00:00Z"));

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
  const status = async (sessionId: string) =>
    (await (await app.call(`/api/checkout/status?session=${sessionId}`)).json()) as {
      status: string;
      downloadUrl: string | null;
      itemTitle: string | null;
    };
  const paymentCount = async () => Number((await app.deps.db.query<{ n: string }>("SELECT count(*) AS n FROM payments")).rows[0]?.n);
  async function startResourceCheckout(resource: Resource, body: Record<string, unknown> = {}): Promise<string> {
    const response = await checkout(app, { kind: "resource", resourceId: resource.id, ...body });
    expect(response.status).toBe(200);
    const { url } = (await response.json()) as { url: string };
    const sessionId = url.split("/").pop() ?? "";
    expect(url).toBe(`${stripe.url}/checkout/${sessionId}`);
    return sessionId;
  }

  it("says test mode is on", async () => {
    const config = await app.call("/api/payments/config", { headers: await app.adminHeaders() });
    expect(await config.json()).toMatchObject({ enabled: true, mode: "test", missing: [] });
  });

  it("sells a resource at its stored price, releases it only once the signed event arrives, and sends one receipt", async () => {
    const resource = await createResource(app, { price: "1900", currency: "eur" });
    const list = (await (await app.call("/api/downloads")).json()) as Resource[];
    expect(list.find((item) => item.id === resource.id)).toMatchObject({ price: 1900, currency: "eur" });

    // The free path is closed to a priced resource.
    const free = await app.call(`/api/downloads/${String(resource.id)}/request`, {
      method: "POST",
      body: JSON.stringify({ email: "x@example.com" }),
      headers: json,
    });
    expect(free.status).toBe(400);

    // The browser's amount is ignored: Stripe is asked for the stored price.
    const sessionId = await startResourceCheckout(resource, { amount: 100, email: "Buyer@Example.com" });
    const created = stripe.calls.at(-1);
    expect(created?.form).toMatchObject({
      "line_items[0][price_data][unit_amount]": "1900",
      "line_items[0][price_data][currency]": "eur",
      "line_items[0][price_data][product_data][name]": "Series A Financial Model",
      customer_email: "buyer@example.com",
      success_url: `${testOrigin}/thanks/?session={CHECKOUT_SESSION_ID}`,
    });

    // Abandoned so far: nothing recorded, the thank-you page waits.
    expect(await paymentCount()).toBe(0);
    expect(await status(sessionId)).toMatchObject({ status: "pending", downloadUrl: null });

    const paid = stripe.pay(sessionId, { email: "buyer@example.com" });
    expect((await post(paid)).status).toBe(204);
    const thanks = await status(sessionId);
    expect(thanks).toMatchObject({ status: "paid", itemTitle: "Series A Financial Model" });
    const file = await app.call(thanks.downloadUrl ?? "");
    expect(file.status).toBe(200);

    const [receipt] = await app.mail.waitFor(1);
    expect(receipt?.to).toEqual(["buyer@example.com"]);
    expect(receipt?.subject).toBe("Your receipt from No Filter");
    expect(receipt?.text).toContain("€19.00");
    const emailed = /http:\/\/localhost:8888(\/api\/downloads\/\d+\/file\?[^\s)\]]+)/.exec(receipt?.text ?? "")?.[1];
    expect((await app.call((emailed ?? "").replaceAll("&amp;", "&"))).status).toBe(200);

    // Counted like a free download.
    const counted = (await (await app.call("/api/downloads")).json()) as (Resource & { downloadCount: number })[];
    expect(counted.find((item) => item.id === resource.id)?.downloadCount).toBe(1);

    // Replayed (Stripe retries, or anyone resends it): nothing changes, no second email.
    expect((await post(paid)).status).toBe(204);
    await Promise.all([post(paid), post(paid)]);
    await app.deliverMail();
    expect(app.mail.to("buyer@example.com")).toHaveLength(1);
    expect(await paymentCount()).toBe(1);

    // The buyer did not tick the newsletter box: not a subscriber.
    const { rows } = await app.deps.db.query("SELECT 1 FROM subscribers WHERE email = 'buyer@example.com'");
    expect(rows).toHaveLength(0);

    // A refund stops every link, the thank-you page's and the email's.
    expect((await post(stripe.refund(sessionId))).status).toBe(204);
    expect((await app.call(thanks.downloadUrl ?? "")).status).toBe(403);
    expect((await app.call((emailed ?? "").replaceAll("&amp;", "&"))).status).toBe(403);
    expect(await status(sessionId)).toMatchObject({ status: "refunded", downloadUrl: null });
  });

  it("refuses a tampered, stale, unsigned or foreign-signed event with 400, changing nothing", async () => {
    const resource = await createResource(app, { price: "700" });
    const sessionId = await startResourceCheckout(resource);
    const paid = stripe.pay(sessionId);
    const before = await paymentCount();
    expect((await post({ payload: paid.payload.replace('"amount_total": 700', '"amount_total": 1'), header: paid.header })).status).toBe(400);
    expect((await post({ payload: paid.payload, header: "" })).status).toBe(400);
    const stale = stripe.sign(paid.event, { timestamp: Math.floor(clock.now().getTime() / 1000) - 301 });
    const staleAnswer = await post(stale);
    expect(staleAnswer.status).toBe(400);
    expect(await staleAnswer.json()).toEqual({ error: "This is not an event signed by Stripe (or it is older than 5 minutes)." });
    expect((await post(stripe.sign(paid.event, { secret: "whsec_someoneElsesSecret000" }))).status).toBe(400);
    expect(await paymentCount()).toBe(before);
    expect(await status(sessionId)).toMatchObject({ status: "pending" });
    // The genuine one still works afterwards (a refused event is not recorded as seen).
    expect((await post(paid)).status).toBe(204);
    expect(await status(sessionId)).toMatchObject({ status: "paid" });
  });

  it("handles a refund or dispute heard before its payment: recorded revoked, no receipt, no link", async () => {
    const resource = await createResource(app, { price: "2500" });
    app.mail.clear();
    const refundedFirst = await startResourceCheckout(resource, { email: "early@example.com" });
    const refundFirst = stripe.refund(refundedFirst);
    const completed = stripe.pay(refundedFirst);
    expect((await post(refundFirst)).status).toBe(204);
    expect((await post(completed)).status).toBe(204);
    expect(await status(refundedFirst)).toMatchObject({ status: "refunded", downloadUrl: null });

    const disputed = await startResourceCheckout(resource, { email: "dispute@example.com" });
    const paid = stripe.pay(disputed);
    const dispute = stripe.dispute(disputed);
    expect((await post(paid)).status).toBe(204);
    const link = (await status(disputed)).downloadUrl ?? "";
    expect((await app.call(link)).status).toBe(200);
    expect((await post(dispute)).status).toBe(204);
    expect((await app.call(link)).status).toBe(403);
    // A late replay of the completed event does not bring the link back.
    expect((await post(stripe.sign(paid.event))).status).toBe(204);
    expect(await status(disputed)).toMatchObject({ status: "disputed", downloadUrl: null });

    await app.deliverMail();
    expect(app.mail.to("early@example.com")).toHaveLength(0);
    expect(app.mail.to("dispute@example.com")).toHaveLength(1);
  });

  it("a late event still delivers once it arrives", async () => {
    const resource = await createResource(app, { price: "900" });
    const sessionId = await startResourceCheckout(resource);
    const paid = stripe.pay(sessionId, { email: "late@example.com" });
    // An hour later Stripe's retry arrives, freshly signed as its retries are.
    clock.advance(60 * 60 * 1000);
    expect((await post(stripe.sign(paid.event))).status).toBe(204);
    expect((await status(sessionId)).downloadUrl).not.toBeNull();
  });

  it("takes a tip within bounds, in minor units, and lists tips with their total", async () => {
    for (const amount of [50, 100_001, 12.5, "500"]) expect((await checkout(app, { kind: "tip", amount })).status).toBe(400);
    expect((await checkout(app, { kind: "tip" })).status).toBe(400);
    const started = await checkout(app, { kind: "tip", amount: 500, email: "fan@example.com", newsletter: true });
    expect(started.status).toBe(200);
    expect(stripe.calls.at(-1)?.form).toMatchObject({
      "line_items[0][price_data][unit_amount]": "500",
      "line_items[0][price_data][currency]": "usd",
    });
    const sessionId = ((await started.json()) as { url: string }).url.split("/").pop() ?? "";
    expect((await post(stripe.pay(sessionId))).status).toBe(204);
    expect(await status(sessionId)).toMatchObject({ status: "paid", itemTitle: "A tip", downloadUrl: null });

    await app.deliverMail();
    const mails = app.mail.to("fan@example.com");
    expect(mails.map((mail) => mail.subject).sort()).toEqual(["Confirm your subscription to No Filter", "Your receipt from No Filter"]);
    // They ticked the box: pending until they confirm, with the consent recorded as on the form.
    const { rows } = await app.deps.db.query<{ status: string; wording: string }>(
      "SELECT s.status, c.wording FROM subscribers s JOIN subscriber_consents c ON c.subscriber_id = s.id WHERE s.email = 'fan@example.com'",
    );
    expect(rows).toEqual([{ status: "pending", wording: "One email a week. No spam. Unsubscribe any time." }]);

    const page = await app.call("/api/payments?kind=tip", { headers: await app.adminHeaders() });
    expect(page.status).toBe(200);
    const tips = (await page.json()) as { payments: { amount: number; kind: string }[]; totals: unknown[] };
    expect(tips.payments).toEqual([expect.objectContaining({ kind: "tip", amount: 500, currency: "usd", status: "paid" })]);
    expect(tips.totals).toEqual([{ kind: "tip", currency: "usd", count: 1, amount: 500 }]);

    const csv = await app.call("/api/payments/export", { headers: await app.adminHeaders() });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe("Date,Kind,Status,Amount (minor units),Currency,Item,Email,Stripe Checkout Session,Live");
    expect(text).toContain(`tip,paid,500,usd,A tip,fan@example.com,${sessionId},no`);

    // The person's export holds the payment; the erase keeps it for accounting, without the address.
    const fanId = (await app.deps.db.query<{ id: number }>("SELECT id FROM subscribers WHERE email = 'fan@example.com'")).rows[0]?.id ?? 0;
    const exported = await app.call(`/api/newsletter/subscribers/${String(fanId)}/export`, { headers: await app.adminHeaders() });
    expect(((await exported.json()) as { payments: unknown[] }).payments).toEqual([
      { kind: "tip", status: "paid", amount: 500, currency: "usd", item: "A tip", paidAt: clock.now().toISOString(), checkoutSessionId: sessionId },
    ]);
    expect((await app.call(`/api/newsletter/subscribers/${String(fanId)}`, { method: "DELETE", headers: await app.adminHeaders() })).status).toBe(
      204,
    );
    const kept = await app.deps.db.query("SELECT email, amount FROM payments WHERE checkout_session_id = $1", [sessionId]);
    expect(kept.rows).toEqual([{ email: null, amount: 500 }]);
  });

  it("sums what stands for the Revenue panel: tips, sales per resource, revenue per post, in the main currency", async () => {
    const started = await app.call("/api/checkout", {
      method: "POST",
      body: JSON.stringify({ kind: "tip", amount: 300 }),
      headers: { ...json, referer: `${testOrigin}/blog/the-round-that-almost-failed?x=1` },
    });
    const sessionId = ((await started.json()) as { url: string }).url.split("/").pop() ?? "";
    expect((await post(stripe.pay(sessionId))).status).toBe(204);
    const day = clock.now().toISOString().slice(0, 10);
    const answer = await app.call(`/api/revenue?from=${day}&to=${day}`, { headers: await app.adminHeaders() });
    expect(answer.status).toBe(200);
    // Standing in usd: the 700 and 900 resources and the 500 and 300 tips (the 1900 eur sale and the 2500 ones were refunded or disputed).
    expect(await answer.json()).toEqual({
      tips: { count: 2, amount: 800 },
      sales: [
        { resourceId: expect.any(Number) as unknown, title: "Series A Financial Model", count: 1, amount: 900 },
        { resourceId: expect.any(Number) as unknown, title: "Series A Financial Model", count: 1, amount: 700 },
      ],
      supporters: { active: 0, mrr: 0, churned: 0 },
      byPost: [{ path: "/blog/the-round-that-almost-failed", amount: 300 }],
      bySource: [],
      currency: "usd",
    });
    const before = await app.call("/api/revenue?from=2026-01-01&to=2026-01-31", { headers: await app.adminHeaders() });
    expect(((await before.json()) as { tips: unknown }).tips).toEqual({ count: 0, amount: 0 });
    expect((await app.call("/api/revenue?from=2026-02-01&to=2026-01-01", { headers: await app.adminHeaders() })).status).toBe(400);
  });

  it("refuses a free resource, an unknown one and the membership at checkout, and rate-limits the public call", async () => {
    const free = await createResource(app);
    expect((await checkout(app, { kind: "resource", resourceId: free.id })).status).toBe(400);
    expect((await checkout(app, { kind: "resource", resourceId: 999_999 })).status).toBe(404);
    expect((await checkout(app, { kind: "resource" })).status).toBe(400);
    expect((await checkout(app, { kind: "membership", interval: "month" })).status).toBe(404);
    expect((await checkout(app, { kind: "gift" })).status).toBe(400);
    const answers: number[] = [];
    for (let index = 0; index < 25; index += 1) answers.push((await checkout(app, { kind: "tip", amount: 300 })).status);
    expect(answers).toContain(429);
  });

  it("answers the thank-you page's question only for a Checkout Session id", async () => {
    expect((await app.call("/api/checkout/status?session=nope")).status).toBe(400);
    expect(await status("cs_test_unknown")).toEqual({ status: "pending", kind: null, itemTitle: null, downloadUrl: null });
  });
});
