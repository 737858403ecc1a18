import { useQuery } from "@tanstack/react-query";
import { paymentsRoutes } from "../../../api/routes/payments.routes.ts";
import { callApi, fetchApiFile } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { saveFile } from "../subscribers/save-file.ts";

/** An amount in minor units as a person reads it (1250 usd: $12.50; 500 jpy: ¥500). */
function money(amount: number, currency: string): string {
  const format = new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

const kindLabels = { tip: "Tip", resource: "Sale", membership: "Membership" } as const;

/**
 * Payments (issue 47): whether Stripe is set up and in which mode (or what is missing, with the
 * setup guide), the totals that stand per kind, the sales per resource, the supporters (active, monthly recurring revenue,
 * churn) and revenue per source and per post, the latest payments and the CSV export.
 */
export default function PaymentsPanel() {
  const config = useQuery(queries.paymentsConfig).data;
  const page = useQuery({
    queryKey: [paymentsRoutes.list.path],
    queryFn: () => callApi(paymentsRoutes.list, { query: {} }),
    enabled: config?.enabled === true,
  }).data;
  const figures = useQuery({
    queryKey: [paymentsRoutes.revenue.path],
    queryFn: () => callApi(paymentsRoutes.revenue, { query: {} }),
    enabled: config?.enabled === true,
  }).data;
  if (!config) return null;
  if (!config.enabled) {
    return (
      <section aria-labelledby="payments-title" className="card p-5">
        <h2 id="payments-title" className="section-title text-xl">
          Payments
        </h2>
        <p className="mt-2 text-sm">
          Tips and paid resources are off: set {config.missing.join(" and ")} (see {config.docs}) to take payments through your own Stripe account.
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="payments-title" className="card p-5">
      <h2 id="payments-title" className="section-title text-xl">
        Payments <span className="admin-badge">{config.mode === "live" ? "Live mode" : "Test mode"}</span>
      </h2>
      <ul className="mt-3 flex flex-wrap gap-4 text-sm">
        {(page?.totals ?? []).map((total) => (
          <li key={`${total.kind}-${total.currency}`}>
            <strong>{kindLabels[total.kind]}s</strong>: {String(total.count)}, {money(total.amount, total.currency)}
          </li>
        ))}
      </ul>
      {figures && (
        <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm" aria-label="Supporters">
          <div>
            <dt className="inline font-semibold">Supporters</dt> <dd className="inline">{String(figures.supporters.active)}</dd>
          </div>
          <div>
            <dt className="inline font-semibold">Monthly recurring revenue</dt>{" "}
            <dd className="inline">{money(figures.supporters.mrr, figures.currency)}</dd>
          </div>
          <div>
            <dt className="inline font-semibold">Ended</dt> <dd className="inline">{String(figures.supporters.churned)}</dd>
          </div>
        </dl>
      )}
      {figures && figures.sales.length > 0 && (
        <table className="mt-3 w-full text-left text-sm">
          <caption className="text-left font-semibold">Sales per resource</caption>
          <thead>
            <tr>
              <th scope="col">Resource</th>
              <th scope="col">Sales</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {figures.sales.map((sale) => (
              <tr key={sale.resourceId ?? `deleted ${sale.title}`}>
                <td>{sale.title}</td>
                <td>{String(sale.count)}</td>
                <td>{money(sale.amount, figures.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {figures && (figures.bySource.length > 0 || figures.byPost.length > 0) && (
        <div className="mt-3 grid gap-4 text-sm sm:grid-cols-2">
          {[
            { caption: "Revenue per source", rows: figures.bySource.map((row) => ({ key: row.source, amount: row.amount })) },
            { caption: "Revenue per page", rows: figures.byPost.map((row) => ({ key: row.path, amount: row.amount })) },
          ].map((table) => (
            <table key={table.caption} className="w-full text-left">
              <caption className="text-left font-semibold">{table.caption}</caption>
              <tbody>
                {table.rows.map((row) => (
                  <tr key={row.key}>
                    <td>{row.key}</td>
                    <td>{money(row.amount, figures.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
        </div>
      )}
      <table className="mt-4 w-full text-left text-sm">
        <caption className="sr-only">Latest payments</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Kind</th>
            <th scope="col">Item</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {(page?.payments ?? []).map((payment) => (
            <tr key={payment.id}>
              <td>{payment.createdAt.slice(0, 10)}</td>
              <td>{kindLabels[payment.kind]}</td>
              <td>{payment.itemTitle}</td>
              <td>{money(payment.amount, payment.currency)}</td>
              <td>{payment.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        className="btn btn-light mt-4 py-2 text-sm"
        onClick={() => void fetchApiFile(paymentsRoutes.export).then((file) => saveFile(file, "payments.csv"))}
      >
        Export payments (CSV)
      </button>
    </section>
  );
}
