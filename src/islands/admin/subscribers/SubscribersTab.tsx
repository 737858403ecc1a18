import { useMutation, useQuery } from "@tanstack/react-query";
import { newsletterRoutes } from "../../../api/routes/newsletter.routes.ts";
import { formatLongDate } from "../../../lib/format-date.ts";
import { fetchApiFile } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast, toastTexts } from "../toasts.ts";
import { Icon } from "../ui/icons.tsx";
import { ListState } from "../ui/ListState.tsx";

/** Fetches the CSV and saves it as email-subscribers.csv (SPEC §7). */
async function exportCsv(): Promise<void> {
  const url = URL.createObjectURL(await fetchApiFile(newsletterRoutes.export));
  const link = document.createElement("a");
  link.href = url;
  link.download = "email-subscribers.csv";
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file to the browser; the URL can go once this task ends.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Email Subscribers: counts, the export, and the list. */
export default function SubscribersTab() {
  const subscribers = useQuery(queries.subscribers);
  const exporter = useMutation({
    mutationFn: exportCsv,
    onSuccess: () => showToast(toastTexts.exportComplete),
    onError: () => showErrorToast("Failed to export email subscribers.", "Export Failed"),
  });
  const list = subscribers.data ?? [];
  const active = list.filter((subscriber) => subscriber.isActive).length;
  const fromNewsletter = list.filter((subscriber) => subscriber.source === "newsletter").length;

  return (
    <section aria-labelledby="subscribers-title" className="card p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="subscribers-title" className="section-title flex items-center gap-3 text-2xl">
          Email Subscribers
          <span className="admin-badge admin-badge-on whitespace-nowrap font-sans text-sm normal-case">{active.toLocaleString("en-US")} active</span>
        </h2>
        <button type="button" className="btn py-2 text-sm" onClick={() => exporter.mutate()} disabled={exporter.isPending}>
          <Icon name="download" />
          {exporter.isPending ? "Exporting..." : "Export CSV"}
        </button>
      </div>
      <ListState loading={subscribers.isPending} error={subscribers.error} empty={list.length === 0} emptyText="No email subscribers yet." />
      {list.length > 0 && (
        <>
          <dl className="mt-4 grid gap-3 sm:grid-cols-3">
            <Total label="Total Subscribers" value={list.length} />
            <Total label="Active Subscribers" value={active} />
            <Total label="Newsletter Signups" value={fromNewsletter} />
          </dl>
          <div className="admin-scroll mt-4 overflow-x-auto" tabIndex={0} role="region" aria-label="Subscriber list">
            {/* Rows keep one line each; on a phone the list scrolls sideways instead of breaking emails apart. */}
            <table className="admin-table whitespace-nowrap">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Status</th>
                  <th scope="col">Subscribed</th>
                  <th scope="col">Source</th>
                </tr>
              </thead>
              <tbody>
                {list.map((subscriber) => (
                  <tr key={subscriber.id}>
                    <td>{subscriber.email}</td>
                    <td>
                      <span className={subscriber.isActive ? "admin-badge admin-badge-on" : "admin-badge"}>
                        {subscriber.isActive ? "Active" : "Inactive"}
                      </span>
                    </td>
                    <td>{formatLongDate(subscriber.subscribedAt)}</td>
                    <td>{subscriber.source}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function Total({ label, value }: { label: string; value: number }) {
  return (
    <div className="border-3 border-ink bg-paper p-3">
      <dt className="text-sm font-bold uppercase tracking-wide">{label}</dt>
      <dd className="font-display text-3xl">{value.toLocaleString("en-US")}</dd>
    </div>
  );
}
