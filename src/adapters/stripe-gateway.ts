import Stripe from "stripe";
import type { PaymentGateway } from "../core/payments/payment-gateway.ts";

export interface StripeSettings {
  /** STRIPE_SECRET_KEY: `sk_test_…`/`rk_test_…` (test mode) or `sk_live_…`/`rk_live_…`. */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: the endpoint's signing secret, `whsec_…`. */
  webhookSecret: string;
  /** STRIPE_API_URL: where the library sends its calls (default Stripe's own; the tests' fake otherwise). */
  apiUrl?: string | undefined;
  /** How old a signed event may be, in seconds (Stripe's default 300). */
  toleranceSeconds?: number;
}

/** The library's `host`/`port`/`protocol` options for another server than api.stripe.com (the local fake). */
export function stripeHostOptions(apiUrl: string | undefined): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol };
}

/** Test or live, from the key's prefix (what Stripe's dashboard shows beside the key). */
export function stripeMode(secretKey: string): "test" | "live" {
  return /^(sk|rk)_live_/.test(secretKey) ? "live" : "test";
}

/** The payments port over the official `stripe` library: Checkout, the Customer Portal and signed events. */
export function stripeGateway(settings: StripeSettings): PaymentGateway {
  const stripe = new Stripe(settings.secretKey, { ...stripeHostOptions(settings.apiUrl), maxNetworkRetries: 1, timeout: 15_000, telemetry: false });
  return {
    mode: stripeMode(settings.secretKey),
    async createCheckout(input) {
      const priceData = { currency: input.currency, unit_amount: input.amount, product_data: { name: input.name } };
      const session = await stripe.checkout.sessions.create({
        ...(input.recurring
          ? {
              mode: "subscription" as const,
              line_items: [{ quantity: 1, price_data: { ...priceData, recurring: { interval: input.recurring } } }],
              // The subscription's own events carry what was bought and where from.
              subscription_data: { metadata: input.metadata },
            }
          : { mode: "payment" as const, line_items: [{ quantity: 1, price_data: priceData }] }),
        ...(input.customerEmail && { customer_email: input.customerEmail }),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: input.metadata,
      });
      if (!session.url) throw new Error("Stripe answered a Checkout Session without a URL");
      return { id: session.id, url: session.url };
    },
    async createPortal(input) {
      const session = await stripe.billingPortal.sessions.create({ customer: input.customer, return_url: input.returnUrl });
      return { url: session.url };
    },
    verifyEvent(payload, signature, nowMs) {
      return stripe.webhooks.constructEvent(payload, signature, settings.webhookSecret, settings.toleranceSeconds ?? 300, undefined, nowMs);
    },
  };
}
