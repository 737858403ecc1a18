/**
 * A local fake of the parts of Stripe's HTTP API the site calls (Checkout Sessions create and
 * retrieve, in payment or subscription mode, Customer Portal sessions), the subscriptions and
 * invoices a subscription-mode Checkout makes, with a one-button Checkout page in place of Stripe's, and the
 * events Stripe would send, signed by the official library's test-header helper
 * (`stripe.webhooks.generateTestHeaderString`). The tests start it on port 0; `npm start` can use it
 * too (docs/payments.md):
 *
 *   node tests/support/fake-stripe.ts   # FAKE_STRIPE_PORT (9410), STRIPE_WEBHOOK_SECRET, FAKE_STRIPE_WEBHOOK_URL
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export const fakeStripeKey = "sk_test_fakefakefakefake";
export const fakeWebhookSecret = "whsec_fakeStripeSigningSecret0001";

export interface FakeSession {
  id: string;
  object: "checkout.session";
  mode: string;
  url: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  payment_intent: string | null;
  amount_total: number;
  currency: string;
  customer_email: string | null;
  customer_details: { email: string | null } | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  livemode: false;
  /** What the caller asked for, as Stripe's form fields (the tests read the line's price from it). */
  line: { name: string; unit_amount: number; currency: string; interval: string | null };
  /** Subscription mode: the customer and subscription Stripe made when it was paid. */
  customer: string | null;
  subscription: string | null;
}

/** A subscription as Stripe's events carry it (the 2025 API shape: the period on the item). */
export interface FakeSubscription {
  id: string;
  object: "subscription";
  customer: string;
  status: string;
  metadata: Record<string, string>;
  items: {
    object: "list";
    data: { current_period_end: number; price: { unit_amount: number; currency: string; recurring: { interval: string } } }[];
  };
  livemode: false;
}

export interface SignedEvent {
  event: Record<string, unknown>;
  payload: string;
  header: string;
}

export interface FakeStripe {
  /** `http://127.0.0.1:<port>`: STRIPE_API_URL. */
  url: string;
  sessions: Map<string, FakeSession>;
  /** Every API call, in order: method, path and the form fields it sent. */
  calls: { method: string; path: string; form: Record<string, string> }[];
  /** The buyer pays on the Checkout page: the session is paid; answers `checkout.session.completed`, signed. */
  pay(sessionId: string, options?: { email?: string; timestamp?: number }): SignedEvent;
  /** Stripe's `charge.refunded` for the session's payment, signed. */
  refund(sessionId: string, options?: { timestamp?: number }): SignedEvent;
  /** Stripe's `charge.dispute.created` for the session's payment, signed. */
  dispute(sessionId: string, options?: { timestamp?: number }): SignedEvent;
  /** Subscriptions made by paid subscription-mode sessions, by id. */
  subscriptions: Map<string, FakeSubscription>;
  /**
   * A `customer.subscription.*` event for the session's subscription with `status` (the stored
   * subscription takes it; `deleted` makes it canceled), signed; `created`: the event's second.
   */
  subscriptionEvent(
    sessionId: string,
    type: "created" | "updated" | "deleted",
    options?: { status?: string; created?: number; periodEnd?: number },
  ): SignedEvent;
  /** An `invoice.paid` or `invoice.payment_failed` for the session's subscription, signed. */
  invoiceEvent(
    sessionId: string,
    type: "invoice.paid" | "invoice.payment_failed",
    options?: { billingReason?: "subscription_create" | "subscription_cycle"; amount?: number; created?: number },
  ): SignedEvent;
  /** Any event, signed with the fake's secret at `timestamp` (unix seconds; default now). */
  sign(event: Record<string, unknown>, options?: { timestamp?: number; secret?: string }): SignedEvent;
  stop(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
  response.end(JSON.stringify(body));
}

function stripeError(response: ServerResponse, status: number, message: string): void {
  send(response, status, { error: { type: "invalid_request_error", message } });
}

/**
 * Starts the fake. `webhookUrl`: where the Checkout page's Pay button posts the signed
 * `checkout.session.completed` (as Stripe would); without it, the test posts the events itself.
 */
export async function startFakeStripe(
  options: { port?: number; host?: string; webhookUrl?: string; secret?: string; now?: () => Date } = {},
): Promise<FakeStripe> {
  const secret = options.secret ?? fakeWebhookSecret;
  const now = options.now ?? (() => new Date());
  const sessions = new Map<string, FakeSession>();
  const subscriptions = new Map<string, FakeSubscription>();
  const calls: FakeStripe["calls"] = [];
  let base = "";

  const sign: FakeStripe["sign"] = (event, signOptions = {}) => {
    const payload = JSON.stringify(event, null, 2);
    const timestamp = signOptions.timestamp ?? Math.floor(now().getTime() / 1000);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: signOptions.secret ?? secret, timestamp });
    return { event, payload, header };
  };
  const eventOf = (type: string, object: unknown, timestamp?: number) => ({
    id: id("evt"),
    object: "event",
    api_version: "2025-10-29.clover",
    created: timestamp ?? Math.floor(now().getTime() / 1000),
    livemode: false,
    pending_webhooks: 1,
    type,
    data: { object },
  });
  const sessionOf = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`No fake Checkout Session ${sessionId}`);
    return session;
  };
  const pay: FakeStripe["pay"] = (sessionId, payOptions = {}) => {
    const session = sessionOf(sessionId);
    session.status = "complete";
    session.payment_status = "paid";
    session.payment_intent ??= id("pi");
    const email = payOptions.email ?? session.customer_email ?? "buyer@example.com";
    session.customer_details = { email };
    if (session.mode === "subscription") {
      // Stripe takes the first invoice's payment: no payment intent on the session, a customer and an active subscription.
      session.payment_intent = null;
      session.customer ??= id("cus");
      session.subscription ??= id("sub");
      const periodSeconds = session.line.interval === "year" ? 365 * 86_400 : 30 * 86_400;
      subscriptions.set(session.subscription, {
        id: session.subscription,
        object: "subscription",
        customer: session.customer,
        status: "active",
        metadata: session.metadata,
        items: {
          object: "list",
          data: [
            {
              current_period_end: Math.floor(now().getTime() / 1000) + periodSeconds,
              price: { unit_amount: session.line.unit_amount, currency: session.currency, recurring: { interval: session.line.interval ?? "month" } },
            },
          ],
        },
        livemode: false,
      });
    }
    return sign(eventOf("checkout.session.completed", { ...session }, payOptions.timestamp), {
      ...(payOptions.timestamp && { timestamp: payOptions.timestamp }),
    });
  };
  const charge = (sessionId: string) => {
    const session = sessionOf(sessionId);
    session.payment_intent ??= id("pi");
    return { id: id("ch"), object: "charge", amount: session.amount_total, currency: session.currency, payment_intent: session.payment_intent };
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", base);
      const body = await readBody(request);
      const form = Object.fromEntries(new URLSearchParams(body));
      if (url.pathname.startsWith("/v1/")) {
        calls.push({ method: request.method ?? "GET", path: url.pathname, form });
        if (!/^Bearer (sk|rk)_test_/.test(request.headers.authorization ?? "")) return stripeError(response, 401, "Invalid API Key provided");
      }
      if (request.method === "POST" && url.pathname === "/v1/checkout/sessions") {
        const unitAmount = Number(form["line_items[0][price_data][unit_amount]"]);
        const currency = form["line_items[0][price_data][currency]"] ?? "";
        if (!Number.isInteger(unitAmount) || unitAmount < 1 || !/^[a-z]{3}$/.test(currency)) return stripeError(response, 400, "Invalid line item");
        const metadata: Record<string, string> = {};
        for (const [key, value] of Object.entries(form)) {
          const match = /^metadata\[(.+)\]$/.exec(key);
          if (match?.[1]) metadata[match[1]] = value;
        }
        const interval = form["line_items[0][price_data][recurring][interval]"] ?? null;
        if ((form.mode === "subscription") !== (interval === "month" || interval === "year"))
          return stripeError(response, 400, "A subscription-mode session needs a recurring price (and only it)");
        const sessionId = id("cs");
        const session: FakeSession = {
          id: sessionId,
          object: "checkout.session",
          mode: form.mode ?? "payment",
          url: `${base}/checkout/${sessionId}`,
          status: "open",
          payment_status: "unpaid",
          payment_intent: null,
          amount_total: unitAmount,
          currency,
          customer_email: form.customer_email ?? null,
          customer_details: null,
          metadata,
          success_url: form.success_url ?? "",
          cancel_url: form.cancel_url ?? "",
          livemode: false,
          line: { name: form["line_items[0][price_data][product_data][name]"] ?? "", unit_amount: unitAmount, currency, interval },
          customer: null,
          subscription: null,
        };
        sessions.set(sessionId, session);
        return send(response, 200, session);
      }
      const retrieve = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(url.pathname);
      if (request.method === "GET" && retrieve?.[1]) {
        const session = sessions.get(retrieve[1]);
        return session ? send(response, 200, session) : stripeError(response, 404, "No such checkout.session");
      }
      if (request.method === "POST" && url.pathname === "/v1/billing_portal/sessions") {
        if (!form.customer) return stripeError(response, 400, "Missing required param: customer.");
        return send(response, 200, {
          id: id("bps"),
          object: "billing_portal.session",
          customer: form.customer,
          url: `${base}/portal/${form.customer}`,
        });
      }
      // The Checkout page: one button instead of Stripe's card form.
      const page = /^\/checkout\/([\w-]+)(\/pay)?$/.exec(url.pathname);
      const session = page?.[1] ? sessions.get(page[1]) : undefined;
      if (page && session && request.method === "GET" && !page[2]) {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        const amount = `${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}`;
        return response.end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Stripe Checkout</title></head><body>` +
            `<h1>Fake Stripe Checkout</h1><p>${session.line.name.replace(/[<>&]/g, "")}: ${amount}</p>` +
            `<form method="post" action="/checkout/${session.id}/pay"><label>Email <input name="email" type="email" value="${(session.customer_email ?? "").replace(/"/g, "")}" required></label>` +
            `<button type="submit">Pay ${amount}</button></form><p><a href="${session.cancel_url}">Cancel</a></p></body></html>`,
        );
      }
      if (page && session && request.method === "POST" && page[2]) {
        const signed = pay(session.id, { ...(form.email && { email: form.email }) });
        const subscription = session.subscription ? subscriptions.get(session.subscription) : undefined;
        // A subscription-mode Checkout: Stripe also tells of the subscription it made.
        const events = subscription ? [signed, sign(eventOf("customer.subscription.created", structuredClone(subscription)))] : [signed];
        for (const event of options.webhookUrl ? events : []) {
          await fetch(options.webhookUrl ?? "", {
            method: "POST",
            headers: { "content-type": "application/json", "stripe-signature": event.header },
            body: event.payload,
          });
        }
        response.writeHead(303, { location: session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id) });
        return response.end();
      }
      // The Customer Portal: a page naming the customer (Stripe's own lets them change or cancel).
      const portal = /^\/portal\/(cus_[\w-]+)$/.exec(url.pathname);
      if (portal?.[1] && request.method === "GET") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return response.end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Stripe Customer Portal</title></head><body><h1>Fake Stripe Customer Portal</h1><p>${portal[1]}</p></body></html>`,
        );
      }
      return stripeError(response, 404, `Unrecognized request URL (${request.method ?? "GET"}: ${url.pathname})`);
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return {
    url: base,
    sessions,
    subscriptions,
    calls,
    pay,
    subscriptionEvent: (sessionId, type, eventOptions = {}) => {
      const subscriptionId = sessionOf(sessionId).subscription;
      const subscription = subscriptionId ? subscriptions.get(subscriptionId) : undefined;
      if (!subscription) throw new Error(`The fake Checkout Session ${sessionId} made no subscription (pay it first)`);
      subscription.status = type === "deleted" ? "canceled" : (eventOptions.status ?? subscription.status);
      const item = subscription.items.data[0];
      if (item && eventOptions.periodEnd !== undefined) item.current_period_end = eventOptions.periodEnd;
      return sign(eventOf(`customer.subscription.${type}`, structuredClone(subscription), eventOptions.created));
    },
    invoiceEvent: (sessionId, type, invoiceOptions = {}) => {
      const session = sessionOf(sessionId);
      if (!session.subscription) throw new Error(`The fake Checkout Session ${sessionId} made no subscription (pay it first)`);
      const amount = invoiceOptions.amount ?? session.line.unit_amount;
      const paid = type === "invoice.paid";
      return sign(
        eventOf(
          type,
          {
            id: id("in"),
            object: "invoice",
            customer: session.customer,
            customer_email: session.customer_details?.email ?? null,
            billing_reason: invoiceOptions.billingReason ?? "subscription_cycle",
            amount_due: amount,
            amount_paid: paid ? amount : 0,
            currency: session.currency,
            status: paid ? "paid" : "open",
            parent: { type: "subscription_details", subscription_details: { subscription: session.subscription } },
          },
          invoiceOptions.created,
        ),
      );
    },
    refund: (sessionId, refundOptions = {}) =>
      sign(eventOf("charge.refunded", { ...charge(sessionId), refunded: true }, refundOptions.timestamp), {
        ...(refundOptions.timestamp && { timestamp: refundOptions.timestamp }),
      }),
    dispute: (sessionId, disputeOptions = {}) => {
      const paid = charge(sessionId);
      return sign(
        eventOf(
          "charge.dispute.created",
          { id: id("dp"), object: "dispute", charge: paid.id, payment_intent: paid.payment_intent },
          disputeOptions.timestamp,
        ),
        { ...(disputeOptions.timestamp && { timestamp: disputeOptions.timestamp }) },
      );
    },
    sign,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// `node tests/support/fake-stripe.ts`: the fake for `npm start` (docs/payments.md).
if (import.meta.url === `file://${process.argv[1] ?? ""}`) {
  const fake = await startFakeStripe({
    port: Number(process.env.FAKE_STRIPE_PORT ?? 9410),
    secret: process.env.STRIPE_WEBHOOK_SECRET ?? fakeWebhookSecret,
    webhookUrl: process.env.FAKE_STRIPE_WEBHOOK_URL ?? "http://localhost:8888/api/stripe/webhook",
  });
  console.log(
    `Fake Stripe on ${fake.url}: set STRIPE_API_URL=${fake.url} STRIPE_SECRET_KEY=${fakeStripeKey} STRIPE_WEBHOOK_SECRET=${process.env.STRIPE_WEBHOOK_SECRET ?? fakeWebhookSecret}`,
  );
}
