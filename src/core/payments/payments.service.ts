import { z } from "zod";
import type { SqlQueryable } from "../db/sql-executor.ts";
import { signPurchaseLink, purchaseLinkLifetimeSeconds } from "../downloads/download-link.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import { AppError, NotFoundError, ValidationError } from "../errors.ts";
import { renderReceiptEmail } from "../mail/emails.ts";
import { enqueueMail, startDelivery, type OutboxMessage, type RenderedMail } from "../mail/outbox.ts";
import { siteIdentity, type MailDeps } from "../mail/person-mail.ts";
import { resourceGoneMessage } from "../messages.ts";
import { takeRateLimit, type RateLimit } from "../rate-limit.ts";
import { subscribeOnTransaction } from "../subscribers/subscribers.service.ts";
import {
  activeSupporter,
  benefitStatuses,
  applySubscriptionEvent,
  invoiceSchema,
  membershipCurrency,
  membershipOffMessage,
  membershipPrices,
  portalCustomer,
  recordMembershipCheckout,
  recordRenewal,
  signPortalToken,
  subscriptionSchema,
} from "./membership.ts";
import type { PaymentGateway } from "./payment-gateway.ts";
import type { CheckoutRequest, CheckoutStatus, ReaderPayments } from "./payment.schema.ts";

/** What payments need: the mail parts (receipts through the outbox) and Stripe, when it is set up. */
export interface PaymentsDeps extends MailDeps {
  /** Undefined while STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not both set: every paid feature is hidden. */
  payments: PaymentGateway | undefined;
  env?: { RATE_LIMIT_MULTIPLIER?: number | undefined };
}

/** The reader's account page: the receipt's "manage your membership" link opens it. */
export const accountPagePath = "/account/";

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

/** What the request says beyond its body: the page and visit it came from, and a signed-in reader. */
export interface CheckoutContext {
  /** The site page the Checkout was started from (a same-origin Referer's path). */
  sourcePath?: string | null;
  /** The visit's source (`checkoutAttribution`): revenue per source. */
  source?: string | null;
  /** The signed-in reader's address (their reader session): a supporter gets a paid resource free. */
  readerEmail?: string | null;
}

/**
 * Starts a Stripe Checkout for a tip, a paid resource or the membership. The amount is the
 * server's: a resource's stored price (whatever the browser sent), the membership's price setting,
 * a tip's chosen amount within `tipBounds` (the schema's). Nothing is written but the rate limit's
 * hit: an abandoned Checkout leaves nothing behind; the payment is recorded only when Stripe's
 * signed event says it was paid. A signed-in supporter asking for a paid resource gets its link at
 * once instead (no Checkout): the link names their membership, and stops when it ends.
 */
export async function startCheckout(
  deps: PaymentsDeps,
  input: CheckoutRequest,
  clientIp: string,
  context: CheckoutContext = {},
): Promise<{ url: string }> {
  const gateway = gatewayOf(deps);
  await takeRateLimit(deps, checkoutLimit, clientIp);
  const metadata: Record<string, string> = {
    kind: input.kind,
    newsletter: input.newsletter ? "1" : "0",
    ...(context.sourcePath && { path: context.sourcePath.slice(0, 400) }),
    ...(context.source && { source: context.source.slice(0, 200) }),
  };
  let line: { amount: number; currency: string; name: string; recurring?: "month" | "year" };
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
    if (context.readerEmail) {
      const supporter = await activeSupporter(deps.db, context.readerEmail);
      if (supporter?.paymentId != null) return { url: deps.site.absolute(await supporterDownload(deps, input.resourceId, supporter.paymentId)) };
    }
    line = { amount: resource.price, currency: resource.currency, name: resource.title };
    metadata.resourceId = String(input.resourceId);
    cancelPath = "/downloads/";
  } else if (input.kind === "tip") {
    if (input.amount === undefined) throw new ValidationError("Choose an amount for your tip");
    line = { amount: input.amount, currency: tipCurrency, name: `Support ${deps.site.name}` };
  } else {
    if (input.interval === undefined) throw new ValidationError("Choose monthly or yearly (interval: month or year)");
    const price = (await membershipPrices(deps))[input.interval];
    if (price === null) throw new NotFoundError(membershipOffMessage);
    line = {
      amount: price,
      currency: membershipCurrency,
      name: `${deps.site.name} supporter (${input.interval === "month" ? "monthly" : "yearly"})`,
      recurring: input.interval,
    };
    metadata.interval = input.interval;
    cancelPath = accountPagePath;
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
const idOrObject = z.union([z.string(), z.object({ id: z.string() }).transform((object) => object.id)]);
/** A subscription-mode session's extra parts. */
const subscriptionSessionSchema = z.object({ mode: z.literal("subscription"), subscription: idOrObject, customer: idOrObject });
const eventSchema = z.object({
  id: z.string(),
  type: z.string(),
  created: z.number().int().optional(),
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
      if (!session.success) return false;
      const subscription = subscriptionSessionSchema.safeParse(event.data.object);
      return recordPaidSession(tx, deps, session.data, event.livemode === true, subscription.success ? subscription.data : null, event.created ?? 0);
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const subscription = subscriptionSchema.safeParse(event.data.object);
      if (subscription.success)
        await applySubscriptionEvent(
          tx,
          deps.now(),
          { type: event.type, created: event.created ?? 0, livemode: event.livemode === true },
          subscription.data,
        );
      return false;
    }
    case "invoice.paid": {
      const invoice = invoiceSchema.safeParse(event.data.object);
      const renewal = invoice.success ? await recordRenewal(tx, deps.now(), invoice.data, event.livemode === true) : null;
      if (!renewal) return false;
      return (await enqueueMail(tx, deps, { kind: "receipt", subscriberId: null, to: renewal.email, paymentId: renewal.paymentId })) !== undefined;
    }
    // A failed invoice alone changes nothing: Stripe retries it, and ends the benefit itself
    // (`customer.subscription.updated` to unpaid or canceled, or `deleted`) if it never succeeds.
    case "invoice.payment_failed":
      return false;
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
  subscription: z.output<typeof subscriptionSessionSchema> | null = null,
  eventCreated = 0,
): Promise<boolean> {
  // Asynchronous methods (bank debits) complete unpaid: their success event comes later.
  if (session.payment_status !== "paid" && session.payment_status !== "no_payment_required") return false;
  const metadata = session.metadata ?? {};
  const kind = metadata.kind === "resource" || metadata.kind === "membership" ? metadata.kind : "tip";
  const resourceId = kind === "resource" && /^[1-9]\d{0,9}$/.test(metadata.resourceId ?? "") ? Number(metadata.resourceId) : null;
  const email = (session.customer_details?.email ?? session.customer_email ?? null)?.trim().toLowerCase() || null;
  const interval = metadata.interval === "month" || metadata.interval === "year" ? metadata.interval : null;
  const title =
    resourceId === null
      ? kind === "tip"
        ? "A tip"
        : `Supporter membership${interval ? ` (${interval === "month" ? "monthly" : "yearly"})` : ""}`
      : ((await tx.query<{ title: string }>("SELECT title FROM downloads WHERE id = $1", [resourceId])).rows[0]?.title ?? "A resource");
  const { rows } = await tx.query<{ id: string | number; status: string }>(
    `INSERT INTO payments (kind, status, checkout_session_id, payment_intent_id, amount, currency, email, download_id, item_title, newsletter, livemode, created_at, revoked_at, source_path, source, subscription_id)
     SELECT $1, COALESCE(r.reason, 'paid'), $2, $3, $4, $5, $6, (SELECT id FROM downloads WHERE id = $7), $8, $9, $10, $11, CASE WHEN r.reason IS NULL THEN NULL ELSE $11::timestamptz END, $12, $13, $14
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
      metadata.source ? metadata.source.slice(0, 200) : null,
      kind === "membership" ? (subscription?.subscription ?? null) : null,
    ],
  );
  const payment = rows[0];
  if (!payment) return false;
  if (kind === "membership" && subscription) {
    await recordMembershipCheckout(tx, deps.now(), {
      subscription: subscription.subscription,
      customer: subscription.customer,
      email,
      amount: session.amount_total ?? 0,
      currency: (session.currency ?? membershipCurrency).toLowerCase(),
      interval,
      sourcePath: /^\/[^\s]{0,399}$/.test(metadata.path ?? "") ? (metadata.path ?? null) : null,
      source: metadata.source ? metadata.source.slice(0, 200) : null,
      livemode,
      eventCreated,
    });
  }
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
  /** The membership's Stripe customer (receipts carry the "manage your membership" link). */
  customer_id?: string | null;
  kind: "tip" | "resource" | "membership";
  status: "paid" | "refunded" | "disputed";
  download_id: number | null;
  item_title: string;
  amount: number;
  currency: string;
  email: string | null;
  created_at: Date;
}

/** How long a paid resource's link works, in seconds: the owner's `purchase_link_days` (default 30). */
export async function purchaseLinkLifetime(deps: Pick<PaymentsDeps, "db">): Promise<number> {
  const days = Number((await siteSettingValues(deps)).purchase_link_days);
  return Number.isInteger(days) && days >= 1 && days <= 365 ? days * 86_400 : purchaseLinkLifetimeSeconds;
}

/** A paid resource's download link (a path), signed for `lifetime` seconds from `now`. */
function purchaseUrl(deps: Pick<PaymentsDeps, "urls" | "signer" | "now">, payment: PaymentLinkRow, lifetime: number): string | null {
  if (payment.status !== "paid" || payment.download_id === null) return null;
  return deps.urls.downloadFile(payment.download_id, signPurchaseLink(deps.signer, payment.download_id, Number(payment.id), deps.now(), lifetime));
}

/**
 * A supporter's free copy of a paid resource: the purchase link, naming the supporter's membership
 * payment instead of a sale (the file route serves it while that membership holds), counted as a
 * download.
 */
async function supporterDownload(deps: PaymentsDeps, resourceId: number, membershipPaymentId: number): Promise<string> {
  await deps.db.query("UPDATE downloads SET download_count = download_count + 1 WHERE id = $1", [resourceId]);
  return deps.urls.downloadFile(
    resourceId,
    signPurchaseLink(deps.signer, resourceId, membershipPaymentId, deps.now(), await purchaseLinkLifetime(deps)),
  );
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
  return {
    status: payment.status,
    kind: payment.kind,
    itemTitle: payment.item_title,
    downloadUrl: purchaseUrl(deps, payment, await purchaseLinkLifetime(deps)),
  };
}

/** An amount in minor units as a person reads it: 1250 usd → "$12.50", 500 jpy → "¥500". */
export function formatAmount(amount: number, currency: string): string {
  const format = new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/** Renders a receipt at delivery: the download link is signed then, valid `purchase_link_days` (30) from then. */
export function receiptEmailRenderer(deps: Omit<MailDeps, "mail">): (message: OutboxMessage) => Promise<RenderedMail> {
  return async (message) => {
    const { rows } = await deps.db.query<PaymentLinkRow>(
      `SELECT p.id, p.kind, p.status, p.download_id, p.item_title, p.amount, p.currency, p.email, p.created_at,
              (SELECT sp.customer_id FROM supporters sp WHERE sp.subscription_id = p.subscription_id) AS customer_id
         FROM payments p WHERE p.id = $1`,
      [message.paymentId],
    );
    const payment = rows[0];
    if (!payment) throw new NotFoundError("This payment is gone.");
    const lifetime = await purchaseLinkLifetime(deps);
    const link = purchaseUrl(deps, payment, lifetime);
    // The Customer Portal through the account page, which posts the token from the fragment (never sent to a server log).
    const manageUrl = payment.customer_id
      ? `${deps.site.absolute(accountPagePath)}#manage=${signPortalToken(deps.signer, payment.customer_id, deps.now())}`
      : null;
    return renderReceiptEmail({
      ...(await siteIdentity(deps)),
      amount: formatAmount(payment.amount, payment.currency),
      itemTitle: payment.item_title,
      downloadUrl: link === null ? null : deps.site.absolute(link),
      linkLifetime: lifetime === 86_400 ? "1 day" : `${String(lifetime / 86_400)} days`,
      manageUrl,
    });
  };
}

/**
 * `POST /api/billing-portal`: a Stripe Customer Portal session (change the plan or the card, cancel)
 * for the supporter named by the receipt's signed token, or for the signed-in reader's membership.
 */
export async function openBillingPortal(
  deps: PaymentsDeps,
  by: { token?: string | undefined; readerEmail?: string | null | undefined },
): Promise<{ url: string }> {
  const gateway = gatewayOf(deps);
  const customer = await portalCustomer(deps, by);
  try {
    return await gateway.createPortal({ customer, returnUrl: deps.site.absolute(accountPagePath) });
  } catch (error) {
    throw new PaymentProviderError(error);
  }
}

/**
 * The account page's section: the reader's payments by their address (newest first, at most 50),
 * a bought resource with a fresh link while its payment stands, and their latest membership.
 */
export async function readerPayments(deps: PaymentsDeps, email: string): Promise<ReaderPayments> {
  const { rows } = await deps.db.query<PaymentLinkRow>(
    `SELECT id, kind, status, download_id, item_title, amount, currency, email, created_at FROM payments
      WHERE lower(email) = lower($1) ORDER BY created_at DESC, id DESC LIMIT 50`,
    [email],
  );
  const { rows: memberships } = await deps.db.query<{
    status: string;
    interval: "month" | "year" | null;
    amount: number;
    currency: string;
    current_period_end: Date | null;
  }>(
    "SELECT status, interval, amount, currency, current_period_end FROM supporters WHERE lower(email) = lower($1) ORDER BY created_at DESC, id DESC LIMIT 1",
    [email],
  );
  const membership = memberships[0];
  const lifetime = await purchaseLinkLifetime(deps);
  return {
    payments: rows.map((payment) => ({
      kind: payment.kind,
      status: payment.status,
      itemTitle: payment.item_title,
      amount: payment.amount,
      currency: payment.currency,
      paidAt: payment.created_at.toISOString(),
      downloadUrl: purchaseUrl(deps, payment, lifetime),
    })),
    membership: membership
      ? {
          status: membership.status,
          active: (benefitStatuses as readonly string[]).includes(membership.status),
          interval: membership.interval,
          amount: membership.amount,
          currency: membership.currency,
          currentPeriodEnd: membership.current_period_end?.toISOString() ?? null,
        }
      : null,
  };
}
