import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { newsletterRoutes } from "../../../api/routes/newsletter.routes.ts";
import { readersRoutes } from "../../../api/routes/readers.routes.ts";
import type { TaggedSubscriber as Subscriber } from "../../../core/subscribers/subscriber-tags.schema.ts";
import { callApi, fetchApiFile } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast, toastTexts } from "../toasts.ts";
import { Icon } from "../ui/icons.tsx";
import { ListState } from "../ui/ListState.tsx";
import { ImportPanel } from "./ImportPanel.tsx";
import { ListHealthPanel } from "./ListHealthPanel.tsx";
import { MailHealthPanel } from "./MailHealthPanel.tsx";
import { saveFile } from "./save-file.ts";
import { StatusFilter, statusLabels, type StatusChoice } from "./StatusFilter.tsx";
import { BulkTags, SubscriberFilters, type ListFilter } from "./SubscriberFilters.tsx";
import { SubscriberTable } from "./SubscriberTable.tsx";

/** Fetches the CSV and saves it as email-subscribers.csv (SPEC §7). */
async function exportCsv(): Promise<void> {
  saveFile(await fetchApiFile(newsletterRoutes.export), "email-subscribers.csv");
}

/** Fetches everything held about one person and saves it as subscriber-<id>.json. */
async function exportOne(subscriber: Subscriber): Promise<void> {
  saveFile(await fetchApiFile(newsletterRoutes.exportOne, { params: { id: subscriber.id } }), `subscriber-${String(subscriber.id)}.json`);
}

/** Email Subscribers: counts, the exports, the import, and the list by status. */
export default function SubscribersTab() {
  const queryClient = useQueryClient();
  const totals = useQuery(queries.subscribers.counts);
  const [shown, setShown] = useState<StatusChoice>("all");
  const [filter, setFilter] = useState<ListFilter>({});
  const subscribers = useInfiniteQuery(queries.subscribers.pages(shown === "all" ? undefined : shown, filter));
  const filtered = shown !== "all" || Object.keys(filter).length > 0;
  const exporter = useMutation({
    mutationFn: exportCsv,
    onSuccess: () => showToast(toastTexts.exportComplete),
    onError: () => showErrorToast("Failed to export email subscribers.", "Export Failed"),
  });
  const personExporter = useMutation({
    mutationFn: exportOne,
    onSuccess: (_, subscriber) => showToast(toastTexts.subscriberExported(subscriber.id)),
    onError: () => showErrorToast("Failed to export subscriber data.", "Export Failed"),
  });
  const eraser = useMutation({
    mutationFn: (subscriber: Subscriber) => callApi(newsletterRoutes.erase, { params: { id: subscriber.id } }),
    onSuccess: async () => {
      showToast(toastTexts.subscriberErased);
      await queryClient.invalidateQueries({ queryKey: queries.subscribers.queryKey });
    },
    onError: () => showErrorToast("Failed to erase subscriber."),
  });
  const readerSignOut = useMutation({
    mutationFn: (subscriber: Subscriber) => callApi(readersRoutes.endSessions, { params: { id: subscriber.id } }),
    onSuccess: ({ ended }) => showToast(toastTexts.readerSignedOut(ended)),
    onError: () => showErrorToast("Failed to sign the reader out."),
  });
  const counts = totals.data ?? { all: 0, pending: 0, active: 0, unsubscribed: 0, bounced: 0, complained: 0, newsletterSignups: 0 };
  const { active, newsletterSignups: fromNewsletter } = counts;
  const visible = subscribers.data?.pages.flatMap((page) => page.rows) ?? [];

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
      <ImportPanel />
      <MailHealthPanel />
      <ListHealthPanel />
      <ListState
        loading={totals.isPending}
        error={totals.error ?? subscribers.error}
        empty={counts.all === 0}
        emptyText="No email subscribers yet."
      />
      {counts.all > 0 && (
        <>
          <dl className="mt-4 grid gap-3 sm:grid-cols-3">
            <Total label="Total Subscribers" value={counts.all} />
            <Total label="Active Subscribers" value={active} />
            <Total label="Newsletter Signups" value={fromNewsletter} />
          </dl>
          <StatusFilter value={shown} counts={counts} onChange={setShown} />
          <SubscriberFilters value={filter} onChange={setFilter} />
          {visible.length > 0 && (
            <BulkTags
              filter={{ ...filter, ...(shown !== "all" && { status: shown }) }}
              listed={filtered ? "every page of this filtered list" : "all subscribers"}
            />
          )}
          {visible.length > 0 ? (
            <>
              <SubscriberTable
                subscribers={visible}
                onExport={(subscriber) => personExporter.mutate(subscriber)}
                onErase={(subscriber) => eraser.mutate(subscriber)}
                onSignOut={(subscriber) => readerSignOut.mutate(subscriber)}
                exportingId={personExporter.isPending ? personExporter.variables.id : undefined}
              />
              {subscribers.hasNextPage && (
                <button
                  type="button"
                  className="btn btn-light mt-3 py-2 text-sm"
                  disabled={subscribers.isFetchingNextPage}
                  onClick={() => void subscribers.fetchNextPage()}
                >
                  {subscribers.isFetchingNextPage ? "Loading..." : "Show more subscribers"}
                </button>
              )}
            </>
          ) : subscribers.isPending ? null : (
            <p className="mt-4">
              No {shown === "all" ? "" : statusLabels[shown].toLowerCase()} subscribers{Object.keys(filter).length > 0 ? " match this filter" : ""}.
            </p>
          )}
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
