import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeStripeKey, fakeWebhookSecret, startFakeStripe, type FakeStripe } from "../../tests/support/fake-stripe.ts";
import { stripeGateway, stripeHostOptions, stripeMode } from "./stripe-gateway.ts";

describe("the Stripe gateway", () => {
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe();
  });
  afterAll(async () => {
    await fake.stop();
  });

  it("points the official library at STRIPE_API_URL through host, port and protocol", () => {
    expect(stripeHostOptions(undefined)).toEqual({});
    expect(stripeHostOptions("http://127.0.0.1:9410")).toEqual({ host: "127.0.0.1", port: "9410", protocol: "http" });
    expect(stripeHostOptions("https://api.example.test")).toEqual({ host: "api.example.test", port: 443, protocol: "https" });
  });

  it("tells test mode from live mode by the key's prefix", () => {
    expect(stripeMode("sk_test_abc")).toBe("test");
    expect(stripeMode("rk_test_abc")).toBe("test");
    expect(stripeMode("sk_live_abc")).toBe("live");
    expect(stripeMode("rk_live_abc")).toBe("live");
  });

  it("creates Checkout and portal sessions on the server it is pointed at, and checks signatures with the library", async () => {
    const gateway = stripeGateway({ secretKey: fakeStripeKey, webhookSecret: fakeWebhookSecret, apiUrl: fake.url });
    const session = await gateway.createCheckout({
      amount: 1234,
      currency: "eur",
      name: "A model",
      successUrl: "http://localhost/thanks/",
      cancelUrl: "http://localhost/",
      metadata: { kind: "resource", resourceId: "7" },
    });
    expect(fake.sessions.get(session.id)).toMatchObject({ amount_total: 1234, currency: "eur", metadata: { kind: "resource", resourceId: "7" } });
    expect((await gateway.createPortal({ customer: "cus_1", returnUrl: "http://localhost/" })).url).toBe(`${fake.url}/portal/cus_1`);

    const signed = fake.pay(session.id);
    const now = Date.now();
    expect(gateway.verifyEvent(signed.payload, signed.header, now)).toMatchObject({ type: "checkout.session.completed" });
    expect(() => gateway.verifyEvent(signed.payload, signed.header, now + 301_000)).toThrow(/tolerance/);
    expect(() => gateway.verifyEvent(`${signed.payload} `, signed.header, now)).toThrow();

    const refused = stripeGateway({ secretKey: "sk_live_notAcceptedByTheFake", webhookSecret: fakeWebhookSecret, apiUrl: fake.url });
    await expect(refused.createPortal({ customer: "cus_1", returnUrl: "http://localhost/" })).rejects.toThrow(/Invalid API Key/);
  });
});
