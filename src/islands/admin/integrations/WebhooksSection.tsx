import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type SubmitEvent } from "react";
import { webhooksRoutes } from "../../../api/routes/webhooks.routes.ts";
import { webhookEventTypes, type WebhookDelivery, type WebhookEndpoint } from "../../../core/webhooks/webhook.schema.ts";
import { callApi } from "../api-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { Icon } from "../ui/icons.tsx";
import { ListState } from "../ui/ListState.tsx";

const endpointsQuery = { queryKey: [webhooksRoutes.list.path], queryFn: () => callApi(webhooksRoutes.list) };
const logKey = (id: number) => [webhooksRoutes.deliveries.path, id];
const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");
const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "medium" });

/** Outgoing webhooks (docs/webhooks.md): the endpoints, adding one, and each one's delivery log. */
export default function WebhooksSection() {
  const endpoints = useQuery(endpointsQuery);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  return (
    <section aria-labelledby="webhooks-title" className="card p-5">
      <h2 id="webhooks-title" className="section-title text-2xl">
        Webhooks
      </h2>
      <p className="mt-2 text-sm">
        Each event you choose is POSTed to your address as JSON, signed the Standard Webhooks way (verify it with any of its libraries), retried for 3
        days, and logged here.
      </p>
      {secret && (
        <div className="mt-4 border-3 border-ink bg-amber/30 p-3" role="region" aria-label="Signing secret">
          <p className="text-sm font-semibold">Signing secret for {secret.url} — copy it now: it is not shown again.</p>
          <code className="mt-2 block break-all font-mono text-sm" data-testid="webhook-secret">
            {secret.secret}
          </code>
        </div>
      )}
      <ListState loading={endpoints.isPending} error={endpoints.error} empty={endpoints.data?.length === 0} emptyText="No endpoints yet." />
      {endpoints.data && endpoints.data.length > 0 && (
        <ul className="mt-4 space-y-4" aria-label="Webhook endpoints">
          {endpoints.data.map((endpoint) => (
            <EndpointItem key={endpoint.id} endpoint={endpoint} onSecret={setSecret} />
          ))}
        </ul>
      )}
      <AddEndpointForm onSecret={setSecret} />
    </section>
  );
}

function AddEndpointForm({ onSecret }: { onSecret: (shown: { url: string; secret: string }) => void }) {
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: ({ body }: { body: { url: string; description: string; events: string[] }; form: HTMLFormElement }) =>
      callApi(webhooksRoutes.create, { body: body as never }),
    onSuccess: async (endpoint, { form }) => {
      form.reset();
      onSecret({ url: endpoint.url, secret: endpoint.secret });
      showToast({ title: "Endpoint Added", description: "Copy its signing secret now: it is shown only once." });
      await queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
    },
    onError: (failure) => showErrorToast(failure.message, "Endpoint Not Added"),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    add.mutate({
      body: { url: text(data.get("url")), description: text(data.get("description")), events: data.getAll("events").map(String) },
      form,
    });
  };
  return (
    <form onSubmit={submit} noValidate className="mt-6 space-y-3 border-t-3 border-ink pt-4" aria-labelledby="add-webhook-title">
      <h3 id="add-webhook-title" className="font-bold uppercase tracking-wide">
        Add an endpoint
      </h3>
      <label className="block">
        <span className="block text-sm font-bold uppercase tracking-wide">Endpoint URL</span>
        <input name="url" type="url" required className="admin-input" placeholder="https://example.com/hooks/no-filter" />
      </label>
      <label className="block">
        <span className="block text-sm font-bold uppercase tracking-wide">Description (optional)</span>
        <input name="description" type="text" maxLength={200} className="admin-input" />
      </label>
      <fieldset>
        <legend className="text-sm font-bold uppercase tracking-wide">Events</legend>
        <div className="mt-2 grid gap-1 sm:grid-cols-2">
          {webhookEventTypes.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="events" value={type} className="size-4 accent-ink" />
              <code>{type}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className="btn py-2 text-sm" disabled={add.isPending}>
        Add Endpoint
      </button>
    </form>
  );
}

function EndpointItem({ endpoint, onSecret }: { endpoint: WebhookEndpoint; onSecret: (shown: { url: string; secret: string }) => void }) {
  const queryClient = useQueryClient();
  const [showLog, setShowLog] = useState(false);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
    await queryClient.invalidateQueries({ queryKey: logKey(endpoint.id) });
  };
  const params = { id: endpoint.id };
  const test = useMutation({
    mutationFn: () => callApi(webhooksRoutes.test, { params }),
    onSuccess: async (delivery) => {
      showToast({ title: "Test Event Sent", description: delivery.status === "sent" ? "The endpoint answered 2xx." : "See the log for its answer." });
      setShowLog(true);
      await refresh();
    },
    onError: (failure) => showErrorToast(failure.message),
  });
  const rotate = useMutation({
    mutationFn: () => callApi(webhooksRoutes.rotateSecret, { params }),
    onSuccess: async (rotated) => {
      onSecret({ url: rotated.url, secret: rotated.secret });
      showToast({ title: "Secret Rotated", description: "The previous secret still signs for 24 hours." });
      await refresh();
    },
    onError: (failure) => showErrorToast(failure.message),
  });
  const toggle = useMutation({
    mutationFn: () => callApi(webhooksRoutes.update, { params, body: { enabled: !endpoint.enabled } }),
    onSuccess: refresh,
    onError: (failure) => showErrorToast(failure.message),
  });
  const remove = useMutation({
    mutationFn: () => callApi(webhooksRoutes.remove, { params }),
    onSuccess: async () => {
      showToast({ title: "Endpoint Deleted", description: `${endpoint.url} gets no more events.` });
      await queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
    },
    onError: (failure) => showErrorToast(failure.message),
  });
  return (
    <li className="border-3 border-ink bg-white p-3" aria-label={endpoint.url}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="break-all font-bold leading-snug">{endpoint.url}</h3>
          {endpoint.description && <p className="text-sm">{endpoint.description}</p>}
          <p className="mt-1 text-sm text-slate">{endpoint.events.join(", ")}</p>
          <p className="mt-1 text-sm font-semibold">
            {endpoint.enabled ? "On" : `Off${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}`}
          </p>
        </div>
        <ConfirmButton
          label={`Delete ${endpoint.url}`}
          title="Delete this endpoint?"
          description="It gets no more events, and its delivery log is deleted."
          confirmLabel="Delete Endpoint"
          onConfirm={() => remove.mutate()}
          disabled={remove.isPending}
        >
          <Icon name="trash" />
        </ConfirmButton>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className="btn btn-light py-1 text-sm" onClick={() => test.mutate()} disabled={test.isPending}>
          Send Test Event
        </button>
        <button type="button" className="btn btn-light py-1 text-sm" onClick={() => setShowLog(!showLog)} aria-expanded={showLog}>
          {showLog ? "Hide Log" : "Delivery Log"}
        </button>
        <button type="button" className="btn btn-light py-1 text-sm" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
          Rotate Secret
        </button>
        <button type="button" className="btn btn-light py-1 text-sm" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
          {endpoint.enabled ? "Switch Off" : "Switch On"}
        </button>
      </div>
      {showLog && <DeliveryLog endpointId={endpoint.id} />}
    </li>
  );
}

function DeliveryLog({ endpointId }: { endpointId: number }) {
  const queryClient = useQueryClient();
  const [failedOnly, setFailedOnly] = useState(false);
  const [since, setSince] = useState("");
  const log = useQuery({
    queryKey: [...logKey(endpointId), failedOnly],
    queryFn: () => callApi(webhooksRoutes.deliveries, { params: { id: endpointId }, query: failedOnly ? { status: "failed" } : {} }),
    // A delivery on its way settles within seconds (or waits for its retry): the log looks again while one is pending.
    refetchInterval: (query) => (query.state.data?.deliveries.some((delivery) => delivery.status === "pending") ? 2000 : false),
  });
  const redeliver = useMutation({
    mutationFn: (body: { ids: number[] } | { since: string }) => callApi(webhooksRoutes.redeliver, { params: { id: endpointId }, body }),
    onSuccess: async ({ queued }) => {
      showToast({ title: "Sent Again", description: queued === 1 ? "1 delivery was sent again." : `${String(queued)} deliveries were sent again.` });
      await queryClient.invalidateQueries({ queryKey: logKey(endpointId) });
    },
    onError: (failure) => showErrorToast(failure.message),
  });
  return (
    <div className="mt-4 border-t-3 border-ink pt-3" role="region" aria-label="Delivery log">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={failedOnly} onChange={(event) => setFailedOnly(event.target.checked)} className="size-4 accent-ink" />
          Failed only
        </label>
        <label className="text-sm">
          <span className="block font-bold">Failed since</span>
          <input type="datetime-local" value={since} onChange={(event) => setSince(event.target.value)} className="admin-input" />
        </label>
        <button
          type="button"
          className="btn btn-light py-1 text-sm"
          disabled={since === "" || redeliver.isPending}
          onClick={() => redeliver.mutate({ since: new Date(since).toISOString() })}
        >
          Send Every Failed One Again
        </button>
      </div>
      <ListState loading={log.isPending} error={log.error} empty={log.data?.deliveries.length === 0} emptyText="No deliveries yet." />
      {log.data && log.data.deliveries.length > 0 && (
        <ol className="mt-3 space-y-2" aria-label="Deliveries">
          {log.data.deliveries.map((delivery) => (
            <DeliveryItem key={delivery.id} delivery={delivery} onAgain={() => redeliver.mutate({ ids: [delivery.id] })} busy={redeliver.isPending} />
          ))}
        </ol>
      )}
    </div>
  );
}

function DeliveryItem({ delivery, onAgain, busy }: { delivery: WebhookDelivery; onAgain: () => void; busy: boolean }) {
  return (
    <li className="border-2 border-ink p-2 text-sm" aria-label={`${delivery.type} ${delivery.status}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span>
          <code>{delivery.type}</code> · <strong>{delivery.status}</strong> · {when(delivery.createdAt)}
          {delivery.resentAt && ` · sent again ${when(delivery.resentAt)}`}
          {delivery.nextTryAt && ` · next try ${when(delivery.nextTryAt)}`}
        </span>
        {delivery.status === "failed" && (
          <button type="button" className="btn btn-light py-1 text-sm" onClick={onAgain} disabled={busy}>
            Send Again
          </button>
        )}
      </div>
      <ul className="mt-1 space-y-1">
        {delivery.attempts.map((attempt, index) => (
          <li key={index} className="text-slate">
            {when(attempt.at)} · {attempt.status === null ? (attempt.error ?? "no answer") : `HTTP ${String(attempt.status)}`} ·{" "}
            {String(attempt.durationMs)} ms
            {attempt.response && (
              <pre className="mt-1 max-h-24 overflow-auto whitespace-pre-wrap break-all bg-paper p-1 font-mono text-xs">{attempt.response}</pre>
            )}
          </li>
        ))}
      </ul>
    </li>
  );
}
