import { z } from "zod";
import type { SqlQueryable } from "../db/sql-executor.ts";
import { NotFoundError, UnauthorizedError, ValidationError } from "../errors.ts";
import type { Signer } from "../shared/signer.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import { attributeForm, sourceSql, unknownPage, type FormRequest } from "../stats/attribution.ts";
import { statsToday } from "../stats/stats.service.ts";
import { removeSubscriberTags, setSubscriberTags } from "../subscribers/subscriber-tags.ts";

/**
 * The supporter membership (issue 47 point 4, docs/decisions/0085-supporter-membership.md): a
 * Stripe subscription at the owner's monthly or yearly price, kept in `supporters` in step with
 * Stripe's signed events. Its benefit holds while Stripe still bills the subscription (`active`,
 * `trialing`, `past_due`): a failed invoice alone never ends it; Stripe ends it (the subscription
 * deleted, or `unpaid`/`canceled`), never the site before.
 */

/** Stripe's subscription statuses under which the supporter keeps the benefit. */
export const benefitStatuses = ["active", "trialing", "past_due"] as const;
const benefitSql = `status IN (${benefitStatuses.map((status) => `'${status}'`).join(", ")})`;

/** The subscriber tag a supporter carries while the benefit holds (segments: `tag supporter`, or the `supporters` term). */
export const supporterTag = "supporter";

/** The membership's currency: the resources' default (the settings hold amounts only). */
export const membershipCurrency = "usd";

/** Answered (404) when the owner has set no price for the interval asked. */
export const membershipOffMessage = "This membership is not offered on this site.";

export type MembershipInterval = "month" | "year";

/** The owner's prices in minor units (`membership_monthly_price`, `membership_yearly_price`); null = that interval is off. */
export async function membershipPrices(deps: { db: SqlQueryable }): Promise<Record<MembershipInterval, number | null>> {
  const settings = await siteSettingValues(deps);
  const price = (value: string) => (/^\d{1,8}$/.test(value.trim()) && Number(value) >= 100 ? Number(value) : null);
  return { month: price(settings.membership_monthly_price), year: price(settings.membership_yearly_price) };
}

/**
 * Where a Checkout was started from, for revenue per post and per source: the page (a same-site
 * `Referer`) and the visit's source, found as a signup's is (`attributeForm`: today's visitor hash,
 * the first outside source of today's views, "direct" without one). Null when no page of the site.
 */
export async function checkoutAttribution(
  deps: { db: SqlQueryable; now: () => Date; env?: { SITE_TIME_ZONE?: string | undefined } },
  form: FormRequest,
): Promise<{ path: string; source: string } | null> {
  const day = statsToday(deps);
  const { path, visitor } = await attributeForm(deps.db, day, form, deps.now());
  if (path === unknownPage) return null;
  const { rows } = await deps.db.query<{ source: string }>(`SELECT ${sourceSql("$1", "$2")} AS source`, [day, visitor]);
  return { path, source: rows[0]?.source ?? "direct" };
}

/** The supporter standing behind an email address (lower case), or null. */
export async function activeSupporter(
  db: SqlQueryable,
  email: string,
): Promise<{ id: number; subscriptionId: string; customerId: string; paymentId: number | null } | null> {
  const { rows } = await db.query<{ id: string | number; subscription_id: string; customer_id: string; payment_id: string | number | null }>(
    `SELECT sp.id, sp.subscription_id, sp.customer_id,
            (SELECT p.id FROM payments p WHERE p.subscription_id = sp.subscription_id AND p.status = 'paid' ORDER BY p.created_at, p.id LIMIT 1) AS payment_id
       FROM supporters sp WHERE lower(sp.email) = lower($1) AND sp.${benefitSql}
      ORDER BY sp.created_at DESC, sp.id DESC LIMIT 1`,
    [email],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: Number(row.id),
    subscriptionId: row.subscription_id,
    customerId: row.customer_id,
    paymentId: row.payment_id === null ? null : Number(row.payment_id),
  };
}

/** The `supporter` tag follows the benefit: set while any of the address's subscriptions holds it, removed otherwise. */
export async function syncSupporterTag(tx: SqlQueryable, email: string | null, now: Date): Promise<void> {
  if (!email) return;
  const { rows } = await tx.query<{ id: number; supporting: boolean }>(
    `SELECT s.id, EXISTS (SELECT 1 FROM supporters sp WHERE lower(sp.email) = lower(s.email) AND sp.${benefitSql}) AS supporting
       FROM subscribers s WHERE lower(s.email) = lower($1)`,
    [email],
  );
  const person = rows[0];
  if (!person) return;
  if (person.supporting) await setSubscriberTags(tx, [person.id], [supporterTag], { source: "payment", detail: "supporter membership", at: now });
  else await removeSubscriberTags(tx, [person.id], [supporterTag]);
}

/** A Checkout Session in subscription mode, completed: the supporter row (or its missing parts), and the tag. */
export async function recordMembershipCheckout(
  tx: SqlQueryable,
  now: Date,
  session: {
    subscription: string;
    customer: string;
    email: string | null;
    amount: number;
    currency: string;
    interval: MembershipInterval | null;
    sourcePath: string | null;
    source: string | null;
    livemode: boolean;
    eventCreated: number;
  },
): Promise<void> {
  // The completed Checkout means Stripe took the first payment: active, unless a subscription event
  // already said more (then only what that event could not know is filled in).
  await tx.query(
    `INSERT INTO supporters (subscription_id, customer_id, email, interval, amount, currency, status, event_created, source_path, source, livemode, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $9, $10, $11)
     ON CONFLICT (subscription_id) DO UPDATE SET
       email = COALESCE(supporters.email, EXCLUDED.email),
       interval = COALESCE(supporters.interval, EXCLUDED.interval),
       source_path = COALESCE(supporters.source_path, EXCLUDED.source_path),
       source = COALESCE(supporters.source, EXCLUDED.source),
       status = CASE WHEN supporters.status = 'incomplete' THEN 'active' ELSE supporters.status END`,
    [
      session.subscription,
      session.customer,
      session.email,
      session.interval,
      session.amount,
      session.currency,
      session.eventCreated,
      session.sourcePath,
      session.source,
      session.livemode,
      now,
    ],
  );
  await syncSupporterTag(tx, session.email, now);
}

const idOf = z.union([z.string(), z.object({ id: z.string() }).transform((object) => object.id)]);

/** The parts of Stripe's subscription object the site reads (both the older and the 2025 API shapes). */
export const subscriptionSchema = z.object({
  id: z.string(),
  customer: idOf,
  status: z.string(),
  current_period_end: z.number().int().nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  items: z
    .object({
      data: z.array(
        z.object({
          current_period_end: z.number().int().nullable().optional(),
          price: z
            .object({
              unit_amount: z.number().int().nullable().optional(),
              currency: z.string().optional(),
              recurring: z.object({ interval: z.string() }).nullable().optional(),
            })
            .optional(),
        }),
      ),
    })
    .optional(),
});

/**
 * `customer.subscription.created/updated/deleted`: Stripe's word on the subscription. Applied only
 * when newer than what the row holds (`event_created`, the event's second), so a late, older event
 * changes nothing; a canceled subscription stays canceled (Stripe never reopens one). The benefit
 * follows the status; `ended_at` marks when it ended (churn).
 */
export async function applySubscriptionEvent(
  tx: SqlQueryable,
  now: Date,
  event: { type: string; created: number; livemode: boolean },
  subscription: z.output<typeof subscriptionSchema>,
): Promise<void> {
  const status = event.type === "customer.subscription.deleted" ? "canceled" : subscription.status;
  const item = subscription.items?.data[0];
  const interval = item?.price?.recurring?.interval;
  const periodEnd = subscription.current_period_end ?? item?.current_period_end ?? null;
  const holds = (benefitStatuses as readonly string[]).includes(status);
  // Neither holding nor ended: `incomplete` (the first payment not yet taken) and `paused`.
  const ended = !holds && status !== "incomplete" && status !== "paused";
  const metadata = subscription.metadata ?? {};
  const { rows } = await tx.query<{ email: string | null }>(
    `INSERT INTO supporters (subscription_id, customer_id, interval, amount, currency, status, current_period_end, event_created, source_path, source, livemode, created_at, ended_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, CASE WHEN $13::boolean THEN $12::timestamptz ELSE NULL END)
     ON CONFLICT (subscription_id) DO UPDATE SET
       status = EXCLUDED.status,
       interval = COALESCE(EXCLUDED.interval, supporters.interval),
       amount = CASE WHEN EXCLUDED.amount > 0 THEN EXCLUDED.amount ELSE supporters.amount END,
       currency = EXCLUDED.currency,
       current_period_end = COALESCE(EXCLUDED.current_period_end, supporters.current_period_end),
       event_created = EXCLUDED.event_created,
       ended_at = CASE WHEN $13::boolean THEN COALESCE(supporters.ended_at, EXCLUDED.ended_at) WHEN EXCLUDED.status = 'paused' THEN supporters.ended_at ELSE NULL END
     WHERE supporters.status <> 'canceled'
       AND supporters.event_created <= EXCLUDED.event_created
       AND NOT (EXCLUDED.status = 'incomplete' AND supporters.status <> 'incomplete')
     RETURNING email`,
    [
      subscription.id,
      subscription.customer,
      interval === "month" || interval === "year" ? interval : null,
      item?.price?.unit_amount ?? 0,
      (item?.price?.currency ?? membershipCurrency).toLowerCase(),
      status,
      periodEnd === null ? null : new Date(periodEnd * 1000),
      event.created,
      /^\/[^\s]{0,399}$/.test(metadata.path ?? "") ? metadata.path : null,
      metadata.source ? metadata.source.slice(0, 200) : null,
      event.livemode,
      now,
      ended,
    ],
  );
  const changed = rows[0];
  if (changed) await syncSupporterTag(tx, changed.email, now);
}

/** The parts of Stripe's invoice the site reads (the subscription where the older and the 2025 API shapes put it). */
export const invoiceSchema = z.object({
  id: z.string(),
  billing_reason: z.string().nullable().optional(),
  amount_paid: z.number().int().optional(),
  currency: z.string().optional(),
  customer_email: z.string().nullable().optional(),
  payment_intent: idOf.nullable().optional(),
  subscription: idOf.nullable().optional(),
  parent: z
    .object({ subscription_details: z.object({ subscription: idOf.nullable().optional() }).nullable().optional() })
    .nullable()
    .optional(),
});

export const invoiceSubscription = (invoice: z.output<typeof invoiceSchema>): string | null =>
  invoice.subscription ?? invoice.parent?.subscription_details?.subscription ?? null;

/**
 * `invoice.paid` for a renewal: a membership payment (by the invoice's id, once), in the currency
 * and at the amount Stripe charged, attributed to the supporter's first page and source. The first
 * invoice (`subscription_create`) is the completed Checkout's payment, recorded with it. Answers
 * the payment's id and email when a receipt is due.
 */
export async function recordRenewal(
  tx: SqlQueryable,
  now: Date,
  invoice: z.output<typeof invoiceSchema>,
  livemode: boolean,
): Promise<{ paymentId: number; email: string } | null> {
  const subscription = invoiceSubscription(invoice);
  if (!subscription || invoice.billing_reason === "subscription_create" || !invoice.amount_paid) return null;
  const { rows } = await tx.query<{ id: string | number; email: string | null }>(
    `INSERT INTO payments (kind, status, checkout_session_id, payment_intent_id, amount, currency, email, item_title, livemode, created_at, subscription_id, source_path, source)
     SELECT 'membership', 'paid', $1, $2, $3, $4, COALESCE(sp.email, $5), $6, $7, $8, $9, sp.source_path, sp.source
       FROM (SELECT 1) AS one LEFT JOIN supporters sp ON sp.subscription_id = $9
     ON CONFLICT DO NOTHING
     RETURNING id, email`,
    [
      invoice.id,
      invoice.payment_intent ?? null,
      invoice.amount_paid,
      (invoice.currency ?? membershipCurrency).toLowerCase(),
      invoice.customer_email?.trim().toLowerCase() || null,
      "Supporter membership (renewal)",
      livemode,
      now,
      subscription,
    ],
  );
  const payment = rows[0];
  return payment?.email ? { paymentId: Number(payment.id), email: payment.email } : null;
}

/** How long the receipt's "manage your membership" link works: a year (the portal lets them change or cancel). */
export const portalLinkLifetimeSeconds = 365 * 24 * 60 * 60;

/** The signed token of the receipt's "manage your membership" link: the Stripe customer, an expiry, a signature. */
export function signPortalToken(signer: Signer, customerId: string, now: Date): string {
  const expires = Math.floor(now.getTime() / 1000) + portalLinkLifetimeSeconds;
  const message = `${customerId}.${String(expires)}`;
  return `${message}.${signer.sign("billing-portal", message)}`;
}

/** The customer a portal token names, when it is ours and unexpired; null otherwise. */
export function verifyPortalToken(signer: Signer, token: string, now: Date): string | null {
  const match = /^(cus_[A-Za-z0-9_]{1,200})\.(\d{1,12})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  if (Number(match[2]) <= Math.floor(now.getTime() / 1000)) return null;
  return signer.verify("billing-portal", `${match[1]}.${match[2]}`, match[3]) ? match[1] : null;
}

/** A bad or expired token, or a signed-out reader who is no supporter. */
export const portalRefusedMessage = "This link to manage your membership has expired or is not valid. Sign in on your account page instead.";
export const notSupporterMessage = "There is no membership under this account.";

/**
 * The Stripe customer whose portal `POST /api/billing-portal` opens: the token's (the receipt's
 * link), else the signed-in reader's latest subscription (any status: a lapsed supporter may
 * resubscribe or see invoices there).
 */
export async function portalCustomer(
  deps: { db: SqlQueryable; signer: Signer; now: () => Date },
  by: { token?: string | undefined; readerEmail?: string | null | undefined },
): Promise<string> {
  if (by.token !== undefined) {
    const customer = verifyPortalToken(deps.signer, by.token, deps.now());
    if (!customer) throw new ValidationError(portalRefusedMessage);
    return customer;
  }
  if (!by.readerEmail) throw new UnauthorizedError("You're not signed in. Sign in with your email to continue.");
  const { rows } = await deps.db.query<{ customer_id: string }>(
    "SELECT customer_id FROM supporters WHERE lower(email) = lower($1) ORDER BY created_at DESC, id DESC LIMIT 1",
    [by.readerEmail],
  );
  if (!rows[0]) throw new NotFoundError(notSupporterMessage);
  return rows[0].customer_id;
}

/** Revenue's supporters figures: who holds the benefit now, their monthly recurring revenue (yearly / 12), and who ended in the range. */
export async function supporterFigures(
  db: SqlQueryable,
  range: { from: string | null; to: string | null },
  currency: string,
): Promise<{ active: number; mrr: number; churned: number }> {
  const { rows } = await db.query<{ active: string | number; mrr: string | number | null; churned: string | number }>(
    `SELECT count(*) FILTER (WHERE ${benefitSql}) AS active,
            round(sum(CASE WHEN interval = 'year' THEN amount / 12.0 ELSE amount END) FILTER (WHERE ${benefitSql} AND currency = $3)) AS mrr,
            count(*) FILTER (WHERE ended_at IS NOT NULL AND ($1::date IS NULL OR ended_at >= $1::date) AND ($2::date IS NULL OR ended_at < $2::date + 1)) AS churned
       FROM supporters`,
    [range.from, range.to, currency],
  );
  const row = rows[0];
  return { active: Number(row?.active ?? 0), mrr: Number(row?.mrr ?? 0), churned: Number(row?.churned ?? 0) };
}
