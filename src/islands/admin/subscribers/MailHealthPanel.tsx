import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { mailRoutes } from "../../../api/routes/mail.routes.ts";
import type { OutboxHealth } from "../../../core/mail/outbox.schema.ts";
import { callApi } from "../api-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";

const healthKey = [mailRoutes.outbox.path];

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

const kindLabels: Record<OutboxHealth["messages"][number]["kind"], string> = {
  confirmation: "Confirmation",
  welcome: "Welcome",
  download: "Download",
  "newsletter-test": "Test send",
  sequence: "Sequence step",
  "webhook-disabled": "Webhook notice",
  digest: "Weekly digest",
  "sequence-test": "Sequence test",
  receipt: "Receipt",
  "reader-sign-in": "Reader sign-in",
  "comments-waiting": "Comments waiting",
  "comment-reply": "Comment reply",
};

/** Mail waiting to go out: checked again every few seconds until it has gone (the only polling here). */
const waiting = (health: OutboxHealth | undefined) => Boolean(health && (health.pending > 0 || health.paused));

/**
 * Transactional mail's health (confirmations, welcomes, downloads, test sends): the pause while the
 * mail provider fails as a whole, the pending and failed messages with the last reply, and "Retry".
 * Nothing shows when all mail went out.
 */
export function MailHealthPanel() {
  const queryClient = useQueryClient();
  const health = useQuery({
    queryKey: healthKey,
    queryFn: () => callApi(mailRoutes.outbox),
    refetchInterval: (query) => (waiting(query.state.data) ? 3000 : false),
  });
  const retry = useMutation({
    mutationFn: () => callApi(mailRoutes.retry),
    onSuccess: (answer) => {
      queryClient.setQueryData(healthKey, answer);
      showToast({ title: "Retrying Email", description: "Pending and failed email is being sent again." });
    },
    onError: (error) => showErrorToast(error.message),
  });
  const data = health.data;
  if (health.error) {
    return (
      <p role="alert" className="mt-4 font-semibold text-signal-dark">
        {health.error.message}
      </p>
    );
  }
  if (!data || (data.pending === 0 && data.failed === 0 && !data.paused)) return null;
  return (
    <section aria-labelledby="mail-health-title" className="mt-4 border-3 border-ink bg-paper p-3">
      <h3 id="mail-health-title" className="text-sm font-bold uppercase tracking-wide">
        Email delivery
      </h3>
      {data.paused && (
        <p role="status" className="mt-2 break-words text-sm" data-paused>
          <strong>Paused: {data.paused.reason}</strong>
          <span className="text-slate"> — trying again at {dateTime.format(new Date(data.paused.until))}</span>
        </p>
      )}
      <p className="mt-1 flex flex-wrap gap-x-4 text-sm">
        <span data-count="pending">
          Pending: <strong>{data.pending}</strong>
        </span>
        <span data-count="failed">
          Failed: <strong>{data.failed}</strong>
        </span>
      </p>
      <ul className="mt-2 space-y-1 text-sm" aria-label="Pending and failed email">
        {data.messages.map((message) => (
          <li key={message.id} className="break-words">
            <span className={message.status === "failed" ? "admin-badge" : "admin-badge admin-badge-on"}>
              {message.status === "failed" ? "Failed" : "Pending"}
            </span>{" "}
            <span className="font-semibold">{kindLabels[message.kind]}</span> to {message.to}
            <span className="text-slate"> · {dateTime.format(new Date(message.createdAt))}</span>
            {message.lastError && <span className="text-slate"> — {message.lastError}</span>}
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-light mt-2 py-2 text-sm" onClick={() => retry.mutate()} disabled={retry.isPending}>
        Retry
      </button>
    </section>
  );
}
