import { stringify } from "csv-stringify/sync";
import type { SqlQueryable } from "../db/sql-executor.ts";
import { supporterFigures } from "./membership.ts";
import type { PaymentGateway } from "./payment-gateway.ts";
import type { Payment, Revenue } from "./payment.schema.ts";

/** The dashboard's page of payments. */
export const paymentsPageSize = 50;

interface PaymentRow {
  id: string | number;
  kind: Payment["kind"];
  status: Payment["status"];
  amount: number;
  currency: string;
  email: string | null;
  download_id: number | null;
  item_title: string;
  livemode: boolean;
  created_at: Date;
  checkout_session_id: string;
}

const columns = "id, kind, status, amount, currency, email, download_id, item_title, livemode, created_at, checkout_session_id";

function toPayment(row: PaymentRow): Payment {
  return {
    id: Number(row.id),
    kind: row.kind,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    email: row.email,
    resourceId: row.download_id,
    itemTitle: row.item_title,
    livemode: row.livemode,
    createdAt: row.created_at.toISOString(),
    checkoutSessionId: row.checkout_session_id,
  };
}

/**
 * One page of payments, newest first, of one kind or all, with the totals of what stands (paid, not
 * refunded or disputed) per kind and currency: tips listed with their total (issue 47 point 2).
 */
export async function listPayments(
  deps: { db: SqlQueryable },
  filter: { kind?: Payment["kind"] | undefined; page?: number | undefined },
): Promise<{
  payments: Payment[];
  totals: { kind: Payment["kind"]; currency: string; count: number; amount: number }[];
  page: number;
  hasMore: boolean;
}> {
  const page = filter.page ?? 1;
  const { rows } = await deps.db.query<PaymentRow>(
    `SELECT ${columns} FROM payments WHERE ($1::text IS NULL OR kind = $1) ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [filter.kind ?? null, paymentsPageSize + 1, (page - 1) * paymentsPageSize],
  );
  const { rows: totals } = await deps.db.query<{ kind: Payment["kind"]; currency: string; count: string | number; amount: string | number }>(
    `SELECT kind, currency, count(*) AS count, COALESCE(sum(amount), 0) AS amount FROM payments
      WHERE status = 'paid' AND ($1::text IS NULL OR kind = $1) GROUP BY kind, currency ORDER BY kind, currency`,
    [filter.kind ?? null],
  );
  return {
    payments: rows.slice(0, paymentsPageSize).map(toPayment),
    totals: totals.map((total) => ({ kind: total.kind, currency: total.currency, count: Number(total.count), amount: Number(total.amount) })),
    page,
    hasMore: rows.length > paymentsPageSize,
  };
}

/** A cell that a spreadsheet would run as a formula gets a leading quote (CSV injection). */
function formulaSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Every payment as CSV (RFC 4180, formula-safe), oldest first, amounts in minor units as Stripe has them. */
export async function exportPaymentsCsv(deps: { db: SqlQueryable }): Promise<string> {
  const { rows } = await deps.db.query<PaymentRow>(`SELECT ${columns} FROM payments ORDER BY created_at, id`);
  const header = ["Date", "Kind", "Status", "Amount (minor units)", "Currency", "Item", "Email", "Stripe Checkout Session", "Live"];
  const records = rows.map((row) => [
    row.created_at.toISOString(),
    row.kind,
    row.status,
    String(row.amount),
    row.currency,
    formulaSafe(row.item_title),
    formulaSafe(row.email ?? ""),
    row.checkout_session_id,
    row.livemode ? "yes" : "no",
  ]);
  return stringify([header, ...records], { record_delimiter: "windows" });
}

/** What the dashboard says about payments: on or off, test or live, and what is missing. */
export function paymentsConfig(
  payments: PaymentGateway | undefined,
  env: { STRIPE_SECRET_KEY?: string | undefined; STRIPE_WEBHOOK_SECRET?: string | undefined },
) {
  const missing = [...(env.STRIPE_SECRET_KEY ? [] : ["STRIPE_SECRET_KEY"]), ...(env.STRIPE_WEBHOOK_SECRET ? [] : ["STRIPE_WEBHOOK_SECRET"])];
  return { enabled: payments !== undefined, mode: payments?.mode ?? null, missing, docs: "docs/payments.md" };
}

/**
 * The Revenue panel: what stands (paid, not refunded or disputed) between `from` and `to` (days,
 * UTC, both included), in the currency most of it was paid in (Stripe's amounts; taxes are Stripe
 * Tax's). Revenue per post is by the page each Checkout was started from, per source by that
 * visit's source (as signups are attributed; a renewal keeps its membership's). Supporters: who
 * holds the benefit now, their monthly recurring revenue (a yearly price / 12), and how many ended
 * within the range.
 */
export async function revenue(deps: { db: SqlQueryable }, range: { from?: string | undefined; to?: string | undefined }): Promise<Revenue> {
  const where = `status = 'paid' AND ($1::date IS NULL OR created_at >= $1::date) AND ($2::date IS NULL OR created_at < $2::date + 1)`;
  const params = [range.from ?? null, range.to ?? null];
  const { rows: currencies } = await deps.db.query<{ currency: string }>(
    `SELECT currency FROM payments WHERE ${where} GROUP BY currency ORDER BY sum(amount) DESC, currency LIMIT 1`,
    params,
  );
  const currency = currencies[0]?.currency ?? "usd";
  const inCurrency = `${where} AND currency = $3`;
  const all = [...params, currency];
  const number = (value: string | number | null) => Number(value ?? 0);
  const { rows: tips } = await deps.db.query<{ count: string; amount: string | null }>(
    `SELECT count(*) AS count, sum(amount) AS amount FROM payments WHERE ${inCurrency} AND kind = 'tip'`,
    all,
  );
  const { rows: sales } = await deps.db.query<{ download_id: number | null; title: string; count: string; amount: string }>(
    `SELECT download_id, max(item_title) AS title, count(*) AS count, sum(amount) AS amount FROM payments
      WHERE ${inCurrency} AND kind = 'resource' GROUP BY download_id ORDER BY sum(amount) DESC, download_id`,
    all,
  );
  const { rows: byPost } = await deps.db.query<{ path: string; amount: string }>(
    `SELECT source_path AS path, sum(amount) AS amount FROM payments
      WHERE ${inCurrency} AND source_path IS NOT NULL GROUP BY source_path ORDER BY sum(amount) DESC, source_path`,
    all,
  );
  const { rows: bySource } = await deps.db.query<{ source: string; amount: string }>(
    `SELECT source, sum(amount) AS amount FROM payments
      WHERE ${inCurrency} AND source IS NOT NULL GROUP BY source ORDER BY sum(amount) DESC, source`,
    all,
  );
  return {
    tips: { count: number(tips[0]?.count ?? 0), amount: number(tips[0]?.amount ?? 0) },
    sales: sales.map((sale) => ({ resourceId: sale.download_id, title: sale.title, count: number(sale.count), amount: number(sale.amount) })),
    supporters: await supporterFigures(deps.db, { from: range.from ?? null, to: range.to ?? null }, currency),
    byPost: byPost.map((post) => ({ path: post.path, amount: number(post.amount) })),
    bySource: bySource.map((row) => ({ source: row.source, amount: number(row.amount) })),
    currency,
  };
}
