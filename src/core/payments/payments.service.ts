import { z } from "zod";
import type { SqlQueryable } from "../db/sql-executor.ts";
import { signPurchaseLink, purchaseLinkLifetimeSeconds } from "../downloads/download-link.ts";
import { AppError, NotFoundError, ValidationError } from "../errors.ts";
import { renderReceiptEmail } from "../mail/emails.ts";
import { enqueueMail, startDelivery, type OutboxMessage, type RenderedMail } from "../mail/outbox.ts";
import { siteIdentity, type MailDeps } from "../mail/person-mail.ts";
import { resourceGoneMessage } from "../messages.ts";
import { takeRateLimit, type RateLimit } from "../rate-limit.ts";
import { subscribeOnTransaction } from "../subscribers/subscribers.service.ts";
import type { PaymentGateway } from "./payment-gateway.ts";
import type { CheckoutRequest, CheckoutStatus } from "./payment.schema.ts";

/** What payments need: the mail parts (receipts through the outbox) and Stripe, when it is set up. */
export interface PaymentsDeps extends MailDeps {
  /** Undefined while STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not both set: every paid feature is hidden. */
  payments: PaymentGateway | undefined;
  env?: { RATE_LIMIT_MULTIPLIER?: number | undefined };
}

/** Answered (404) by every paid call while Stripe is not set up. */
export const paymentsOffMessage = "Payments are not set up on this site.";

/** The currency of tips (the resources' default); a resource carries its own. */
export const tipCurrency = "usd";

/** Per client address: a reader trying a few times, not a script minting sessions. */
export const checkoutLimit: RateLimit = { bucket: "checkout", max: 20, windowMs: 10 * 60 * 1000 };

/** How old a signed event may be (seconds): Stripe's library default, 5 minutes. */
export const eventToleranceSeconds = 300;

function gatewayOf(deps: Pick<PaymentsDeps, "payments">): PaymentGateway {
  if (!deps.payments) throw new NotFoundError(paymentsOffMessage);
  return deps.payments;
}

/** Stripe refused or could not be reached: the reader may try again; nothing was recorded. */
export class PaymentProviderError extends AppError {
  constructor(cause: unknown) {
    super("Stripe could not start the payment. Please try again in a minute.", 502, { cause });
  }
}

/**
 * Starts a Stripe Checkout for a tip or a paid resource. The amount is the server's: a resource's
 * stored price (whatever the browser sent), a tip's chosen amount within `tipBounds` (the schema's).
 * Nothing is written but the rate limit's hit: an abandoned Checkout leaves nothing behind; the
 * payment is recorded only when Stripe's signed event says it was paid.
 */
export async function startCheckout(
  deps: PaymentsDeps,
  input: CheckoutRequest,
  clientIp: string,
  sourcePath: string | null = null,
): Promise<{ url: string }> {
  const gateway = gatewayOf(deps);
  await takeRateLimit(deps, checkoutLimit, clientIp);
  const metadata: Record<string, string> = {
    kind: input.kind,
    newsletter: input.newsletter ? "1" : "0",
    ...(sourcePath && { path: sourcePath.slice(0, 400) }),
  };
  let line: { amount: number; currency: string; name: string };
  let cancelPath = "/";
  if (input.kind === "resource") {
    if (input.resourceId === undefined) throw new ValidationError("resourceId is required to buy a resource");
    const { rows } = await deps.db.query<{ title: string; price: number; currency: string }>(
      "SELECT title, price, currency FROM downloads WHERE id = $1",
      [input.resourceId],
    );
    const resource = rows[0];
    if (!resource) throw new NotFoundError(resourceGoneMessage);
    if (resource.price <= 0) throw new ValidationError("This resource is free: ask for it with your email instead.");
    line = { amount: resource.price, currency: resource.currency, name: resource.title };
    metadata.resourceId = String(input.resourceId);
    cancelPath = "/downloads/";
  } else if (input.kind === "tip") {
    if (input.amount === undefined) throw new ValidationError("Choose an amount for your tip");
    line = { amount: input.amount, currency: tipCurrency, name: `Support ${deps.site.name}` };
  } else {
    throw new NotFoundError("The membership is not offered on this site yet.");
  }
  try {
    const session = await gateway.createCheckout({
      ...line,
      customerEmail: input.email,
      // Stripe fills in the session's id: the thank-you page asks for its payment by it.
      successUrl: `${deps.site.absolute("/thanks/")}?session={CHECKOUT_SESSION_ID}`,
      cancelUrl: deps.site.absolute(cancelPath),
      metadata,
    });
    return { url: session.url };
  } catch (error) {
    throw new PaymentProviderError(error);
  }
}

/** The parts of Stripe's objects the site reads; anything else in them is ignored. */
const checkoutSessionSchema = z.object({
  id: z.string(),
  payment_status: z.string(),
  payment_intent: z.string().nullable().optional(),
  amount_total: z.number().int().nullable().optional(),
  currency: z.string().nullable().optional(),
  customer_email: z.string().nullable().optional(),
  customer_details: z.object({ email: z.string().nullable().optional() }).nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});
const chargeSchema = z.object({ payment_intent: z.string().nullable().optional() });
const eventSchema = z.object({
  id: z.string(),
  type: z.string(),
  livemode: z.boolean().optional(),
  data: z.object({ object: z.unknown() }),
});

type StripeEvent = z.output<typeof eventSchema>;

/** A bad, missing or stale signature, or a body that is no Stripe event: 400, nothing changes. */
export const badEventMessage = "This is not an event signed by Stripe (or it is older than 5 minutes).";

/**
 * One event from `POST /api/stripe/webhook`: its signature checked by Stripe's own library over the
 * raw body (400 when bad or stale), then handled once. The event's id goes into `stripe_events` in
 * the transaction of its effect, so a replay (Stripe retries, or anyone resending a captured one)
 * finds it there and changes nothing, sends nothing. Events may come in any order: a refund before
 * its payment is kept in `payment_revocations` and applied when the payment is recorded.
 */
export async function receiveStripeEvent(deps: PaymentsDeps, payload: string, signature: string | null): Promise<void> {
  const gateway = gatewayOf(deps);
  if (!signature) throw new ValidationError(badEventMessage);
  let verified: unknown;
  try {
    verified = gateway.verifyEvent(payload, signature, deps.now().getTime());
  } catch {
    throw new ValidationError(badEventMessage);
  }
  const parsed = eventSchema.safeParse(verified);
  if (!parsed.success) throw new ValidationError(badEventMessage);
  const event = parsed.data;
  const queued = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      "INSERT INTO stripe_events (id, type, received_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id",
      [event.id, event.type, deps.now()],
    );
    if (!rows[0]) return false;
    return handleEvent(tx, deps, event);
  });
  if (queued) startDelivery(deps);
}

async function handleEvent(tx: SqlQueryable, deps: PaymentsDeps, event: StripeEvent): Promise<boolean> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = checkoutSessionSchema.safeParse(event.data.object);
      return session.success ? recordPaidSession(tx, deps, session.data, event.livemode === true) : false;
    }
    case "charge.refunded":
    case "charge.dispute.created": {
      const charge = chargeSchema.safeParse(event.data.object);
      const intent = charge.success ? charge.data.payment_intent : undefined;
      if (intent) await revokePayment(tx, deps, intent, event.type === "charge.refunded" ? "refunded" : "disputed");
      return false;
    }
    default:
      // Every other event type is heard and ignored (the endpoint may be subscribed to more).
      return false;
  }
}

/**
 * A Checkout Session Stripe says is paid: the payment is recorded once (by session id, so the
 * completed event and a later async-success event make one row), a paid resource's count rises,
 * the receipt is queued, and the newsletter's double opt-in starts only if the box was ticked.
 */
async function recordPaidSession(
  tx: SqlQueryable,
  deps: PaymentsDeps,
  session: z.output<typeof checkoutSessionSchema>,
  livemode: boolean,
): Promise<boolean> {
  // Asynchronous methods (bank debits) complete unpaid: their success event comes later.
  if (session.payment_status !== "paid" && session.payment_status !== "no_payment_required") return false;
  const metadata = session.metadata ?? {};
  const kind = metadata.kind === "resource" || metadata.kind === "membership" ? metadata.kind : "tip";
  const resourceId = kind === "resource" && /^[1-9]\d{0,9}$/.test(metadata.resourceId ?? "") ? Number(metadata.resourceId) : null;
  const email = (session.customer_details?.email ?? session.customer_email ?? null)?.trim().toLowerCase() || null;
  const title =
    resourceId === null
      ? kind === "tip"
        ? "A tip"
        : "Membership"
      : ((await tx.query<{ title: string }>("SELECT title FROM downloads WHERE id = $1", [resourceId])).rows[0]?.title ?? "A resource");
  const { rows } = await tx.query<{ id: string | number; status: string }>(
    `INSERT INTO payments (kind, status, checkout_session_id, payment_intent_id, amount, currency, email, download_id, item_title, newsletter, livemode, created_at, revoked_at, source_path)
     SELECT $1, COALESCE(r.reason, 'paid'), $2, $3, $4, $5, $6, (SELECT id FROM downloads WHERE id = $7), $8, $9, $10, $11, CASE WHEN r.reason IS NULL THEN NULL ELSE $11::timestamptz END, $12
       FROM (SELECT 1) AS one LEFT JOIN payment_revocations r ON r.payment_intent_id = $3
     ON CONFLICT DO NOTHING
     RETURNING id, status`,
    [
      kind,
      session.id,
      session.payment_intent ?? null,
      session.amount_total ?? 0,
      (session.currency ?? tipCurrency).toLowerCase(),
      email,
      resourceId,
      title,
      metadata.newsletter === "1",
      livemode,
      deps.now(),
      /^\/[^\s]{0,399}$/.test(metadata.path ?? "") ? metadata.path : null,
    ],
  );
  const payment = rows[0];
  if (!payment) return false;
  const paymentId = Number(payment.id);
  let queued = false;
  if (resourceId !== null) await tx.query("UPDATE downloads SET download_count = download_count + 1 WHERE id = $1", [resourceId]);
  if (email && metadata.newsletter === "1") queued = (await subscribeOnTransaction(tx, deps, email)) || queued;
  if (email && payment.status === "paid") {
    queued = (await enqueueMail(tx, deps, { kind: "receipt", subscriberId: null, to: email, paymentId })) !== undefined || queued;
  }
  return queued;
}

/** A refund or a dispute: the payment's future downloads stop (and a payment not heard of yet starts revoked). */
async function revokePayment(
  tx: SqlQueryable,
  deps: Pick<PaymentsDeps, "now">,
  paymentIntent: string,
  reason: "refunded" | "disputed",
): Promise<void> {
  await tx.query("INSERT INTO payment_revocations (payment_intent_id, reason, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [
    paymentIntent,
    reason,
    deps.now(),
  ]);
  await tx.query("UPDATE payments SET status = $2, revoked_at = $3 WHERE payment_intent_id = $1 AND status = 'paid'", [
    paymentIntent,
    reason,
    deps.now(),
  ]);
}

interface PaymentLinkRow {
  id: string | number;
  kind: "tip" | "resource" | "membership";
  status: "paid" | "refunded" | "disputed";
  download_id: number | null;
  item_title: string;
  amount: number;
  currency: string;
  email: string | null;
  created_at: Date;
}

/** A paid resource's download link (a path), signed for `purchaseLinkLifetimeSeconds` from `now`. */
function purchaseUrl(deps: Pick<PaymentsDeps, "urls" | "signer" | "now">, payment: PaymentLinkRow): string | null {
  if (payment.status !== "paid" || payment.download_id === null) return null;
  return deps.urls.downloadFile(payment.download_id, signPurchaseLink(deps.signer, payment.download_id, Number(payment.id), deps.now()));
}

/**
 * What the thank-you page shows for a Checkout Session: `pending` until Stripe's event has arrived,
 * then the payment, and a paid resource's download link while the payment stands. The session id
 * (Stripe's, unguessable) is what the buyer's browser was sent back with.
 */
export async function checkoutStatus(deps: PaymentsDeps, sessionId: string): Promise<CheckoutStatus> {
  gatewayOf(deps);
  const { rows } = await deps.db.query<PaymentLinkRow>(
    "SELECT id, kind, status, download_id, item_title, amount, currency, email, created_at FROM payments WHERE checkout_session_id = $1",
    [sessionId],
  );
  const payment = rows[0];
  if (!payment) return { status: "pending", kind: null, itemTitle: null, downloadUrl: null };
  return { status: payment.status, kind: payment.kind, itemTitle: payment.item_title, downloadUrl: purchaseUrl(deps, payment) };
}

/** An amount in minor units as a person reads it: 1250 usd → "$12.50", 500 jpy → "¥500". */
export function formatAmount(amount: number, currency: string): string {
  const format = new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/** Renders a receipt at delivery: the download link is signed then, valid 30 days from then. */
export function receiptEmailRenderer(deps: Omit<MailDeps, "mail">): (message: OutboxMessage) => Promise<RenderedMail> {
  return async (message) => {
    const { rows } = await deps.db.query<PaymentLinkRow>(
      "SELECT id, kind, status, download_id, item_title, amount, currency, email, created_at FROM payments WHERE id = $1",
      [message.paymentId],
    );
    const payment = rows[0];
    if (!payment) throw new NotFoundError("This payment is gone.");
    const link = purchaseUrl(deps, payment);
    return renderReceiptEmail({
      ...(await siteIdentity(deps)),
      amount: formatAmount(payment.amount, payment.currency),
      itemTitle: payment.item_title,
      downloadUrl: link === null ? null : deps.site.absolute(link),
      linkLifetime: `${String(purchaseLinkLifetimeSeconds / 86_400)} days`,
    });
  };
}
