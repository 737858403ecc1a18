/**
 * What the payments feature needs from Stripe (the port; src/adapters/stripe-gateway.ts is the
 * official `stripe` library behind it). No card data ever reaches the site: the buyer pays on
 * Stripe's Checkout page, and the site hears of it through a signed event.
 */
export interface PaymentGateway {
  /** `test` for an `sk_test_`/`rk_test_` key, `live` for a live one: the dashboard says which is on. */
  mode: "test" | "live";
  /** A Checkout Session for one line whose amount the server chose: one-off, or a subscription when `recurring` is set. */
  createCheckout(input: CheckoutInput): Promise<{ id: string; url: string }>;
  /** A Customer Portal session (the membership's change or cancel). */
  createPortal(input: { customer: string; returnUrl: string }): Promise<{ url: string }>;
  /**
   * The event in `payload` when `signature` (the `Stripe-Signature` header) is Stripe's over exactly
   * these bytes and no older than the tolerance at `nowMs`; throws otherwise.
   */
  verifyEvent(payload: string, signature: string, nowMs: number): unknown;
}

export interface CheckoutInput {
  /** Minor units, from the server's own price or bounds, never the browser's. */
  amount: number;
  currency: string;
  /** The line's name on Stripe's page. */
  name: string;
  /** A subscription (the membership) billed every month or year; absent: a one-off payment. */
  recurring?: "month" | "year" | undefined;
  customerEmail?: string | undefined;
  successUrl: string;
  cancelUrl: string;
  /** Read back from the completed event: what was bought, and the newsletter box (a subscription's events carry it too). */
  metadata: Record<string, string>;
}

/** Refused with 400: the signature or its age is wrong (the library's message says which). */
export class EventSignatureError extends Error {}
