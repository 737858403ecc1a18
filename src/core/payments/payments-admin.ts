import { stringify } from "csv-stringify/sync";
import type { SqlQueryable } from "../db/sql-executor.ts";
import type { PaymentGateway } from "./payment-gateway.ts";
import type { Payment } from "./payment.schema.ts";

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
