import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useEffect, useId, useRef, useState } from "react";
import { newsletterSendsRoutes } from "../../../api/routes/newsletter-sends.routes.ts";
import type { NewsletterSend } from "../../../core/newsletter/newsletter.schema.ts";
import type { Post } from "../../../core/posts/post.schema.ts";
import { callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { TestSendForm } from "../ui/TestSendForm.tsx";
import { AudiencePicker, useAudienceCount, type Audience } from "./AudiencePicker.tsx";
import { formatScheduledTime, fromLocalInput, ownTimeZone } from "./local-date-time.ts";

/** Opens the "Send as newsletter" panel for a post (given by the Posts tab to its list). */
export const SendAsNewsletterContext = createContext<((post: Post) => void) | null>(null);

const routes = newsletterSendsRoutes;
const historyKey = (postId: number) => [routes.list.path, postId];
const sendKey = (sendId: number) => [routes.get.path, sendId];
const failedKey = (sendId: number) => [routes.failed.path, sendId];

/** Still going: the one case the dashboard polls (SPEC §9 has no polling otherwise). */
const running = (send: NewsletterSend | undefined) =>
  send?.status === "preparing" || send?.status === "queued" || send?.status === "sending" || send?.status === "waiting";
/** Not started yet: the owner may still cancel it, and it says what it waits for. */
const notStarted = (send: NewsletterSend) => send.status === "scheduled" || send.status === "waiting";
/** How often a send is asked about: every second while it runs or waits for the site; a scheduled one, every 15 s. */
const pollEvery = (send: NewsletterSend | undefined) => (running(send) ? 1000 : send?.status === "scheduled" ? 15_000 : false);

const statusLabels: Record<NewsletterSend["status"], string> = {
  scheduled: "Scheduled",
  waiting: "Waiting for the site",
  preparing: "Preparing",
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed",
  paused: "Paused",
  cancelled: "Cancelled",
};

const percent = (fraction: number) => `${(fraction * 100).toLocaleString("en-US", { maximumFractionDigits: 2 })} %`;

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short" });

const subscribersLabel = (count: number) => `${String(count)} ${count === 1 ? "subscriber" : "subscribers"}`;

/** What a send that is still fixing its recipients says: how many so far, never a total it has not fixed. */
const preparingText = (prepared: number) => `Preparing recipients… ${prepared.toLocaleString("en-US")} so far`;

/**
 * "Send as newsletter" for one published post: the email's preview, a test to any address, the
 * send to every active subscriber (asked first, naming how many), its live progress, and the
 * post's send history with the failed addresses and "Retry failed".
 */
export default function NewsletterPanel({ post, onClose }: { post: Post; onClose: () => void }) {
  const queryClient = useQueryClient();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [sendAtInput, setSendAtInput] = useState("");
  const sendAtId = useId();
  const preview = useQuery({
    queryKey: [routes.preview.path, post.id],
    queryFn: () => callApi(routes.preview, { query: { postId: String(post.id) } }),
  });
  const history = useQuery({
    queryKey: historyKey(post.id),
    queryFn: () => callApi(routes.list, { query: { postId: String(post.id) } }),
  });
  const subscribers = useQuery(queries.subscribers.counts);
  const listed = subscribers.data?.active;
  const [audience, setAudience] = useState<Audience>({ kind: "everyone" });
  // The exact number a send now would be fixed for, by the server's rule (decision 0072).
  const { count: active, error: audienceError, segment } = useAudienceCount(audience);
  // The setup checklist knows whether the footer's postal address is still the example: then the send asks twice.
  const setup = useQuery(queries.setup);
  const placeholderAddress = setup.data?.items.some((item) => item.key === "postal-address" && !item.done) ?? false;

  useEffect(() => {
    headingRef.current?.scrollIntoView({ block: "start" });
    headingRef.current?.focus();
  }, [post.id]);

  const start = useMutation({
    mutationFn: (sendAt: string) =>
      callApi(routes.start, {
        body: { postId: post.id, ...(sendAt && { sendAt }), ...(segment !== undefined && segment !== null && { segment }) },
      }),
    onSuccess: (send) => {
      setRefusal(null);
      queryClient.setQueryData(sendKey(send.id), send);
      if (send.status === "scheduled" && send.sendAt)
        showToast({ title: "Newsletter Scheduled", description: `“${post.title}” goes out at ${formatScheduledTime(send.sendAt)}.` });
      else if (send.status === "waiting")
        showToast({ title: "Newsletter Waiting", description: `“${post.title}” goes out once its page is live on the site.` });
      else if (send.status === "preparing")
        showToast({ title: "Newsletter Sending", description: `“${post.title}” is on its way: its recipients are being prepared.` });
      else showToast({ title: "Newsletter Sending", description: `“${post.title}” is on its way to ${subscribersLabel(send.total)}.` });
    },
    onError: (error) => setRefusal(error.message),
    // A refusal (409: sent already) may mean the history here is out of date.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: historyKey(post.id) }),
  });

  const sends = history.data ?? [];
  const alreadySent = sends.length > 0;
  const sendAt = fromLocalInput(sendAtInput);

  return (
    <section aria-labelledby="newsletter-panel-title" className="card mt-8 p-5" id="newsletter-panel">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id="newsletter-panel-title" ref={headingRef} tabIndex={-1} className="section-title min-w-0 break-words text-2xl">
          Send as newsletter: {post.title}
        </h2>
        <button type="button" className="btn btn-light py-2 text-sm" onClick={onClose}>
          Close
        </button>
      </div>

      <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div>
          <h3 className="font-bold">Preview</h3>
          {preview.isPending && <p className="mt-2 text-slate">Rendering the email…</p>}
          {preview.error && (
            <p role="alert" className="mt-2 font-semibold text-signal-dark">
              {preview.error.message}
            </p>
          )}
          {preview.data && (
            <>
              <p className="mt-2 text-sm">
                <span className="font-bold">Subject:</span> {preview.data.subject}
              </p>
              {/* Worked out by the server, which measures the HTML the way Gmail does. */}
              {preview.data.clipWarning && (
                <p role="status" data-testid="newsletter-clip-warning" className="mt-2 border-3 border-ink bg-amber/20 p-2 text-sm font-semibold">
                  {preview.data.clipWarning}
                </p>
              )}
              {/* sandbox="": the email's HTML runs no script and reaches nothing of the dashboard. */}
              <iframe title="Email preview" sandbox="" srcDoc={preview.data.html} className="mt-2 h-[32rem] w-full border-3 border-ink bg-white" />
            </>
          )}
        </div>

        <div className="space-y-6">
          <TestSend postId={post.id} />

          <div>
            <h3 className="font-bold">Send to the list</h3>
            {alreadySent ? (
              <p className="mt-2">This post was already sent as the newsletter; its send is below. A post is sent once.</p>
            ) : history.isPending || listed === undefined ? (
              <p className="mt-2 text-slate">Counting subscribers…</p>
            ) : listed === 0 ? (
              <p className="mt-2">There is no active subscriber to send this post to yet.</p>
            ) : (
              <div className="mt-2">
                <AudiencePicker audience={audience} onChange={setAudience} />
                {audienceError ? (
                  <p role="alert" data-testid="audience-error" className="mb-3 text-sm font-semibold text-signal-dark">
                    {audienceError}
                  </p>
                ) : (
                  <p role="status" data-testid="audience-count" className="mb-3 text-sm font-semibold">
                    {active === undefined ? "Counting…" : `Reaches ${subscribersLabel(active)} now.`}
                  </p>
                )}
                <label htmlFor={sendAtId} className="block text-sm font-bold uppercase tracking-wide">
                  Send at
                </label>
                <input
                  id={sendAtId}
                  type="datetime-local"
                  value={sendAtInput}
                  onChange={(event) => setSendAtInput(event.target.value)}
                  aria-describedby={`${sendAtId}-hint`}
                  className="admin-input mt-1 sm:max-w-xs"
                />
                <p id={`${sendAtId}-hint`} className="mt-1 mb-3 text-sm text-slate">
                  Your time ({ownTimeZone()}). Leave empty to send now. Either way it starts once the post&apos;s page is live, to everyone in the
                  audience at that moment.
                </p>
                <ConfirmButton
                  label={sendAt ? `Schedule for ${formatScheduledTime(sendAt)}` : `Send to ${subscribersLabel(active ?? 0)}`}
                  title={
                    sendAt ? `Send “${post.title}” at ${formatScheduledTime(sendAt)}?` : `Send “${post.title}” to ${subscribersLabel(active ?? 0)}?`
                  }
                  description={`${
                    placeholderAddress
                      ? "Your postal address is still the example one (123 Example Street), and every email's footer shows it: the law (CAN-SPAM) asks for your real address. Set it in Site Settings first, or send anyway. "
                      : ""
                  }${sendAt ? "It goes to everyone in the audience at that time. You can cancel it until it starts." : "This can't be undone."}`}
                  confirmLabel={placeholderAddress ? "Send anyway" : sendAt ? "Schedule" : `Send to ${subscribersLabel(active ?? 0)}`}
                  onConfirm={() => start.mutate(sendAt)}
                  disabled={start.isPending || active === undefined || (!sendAt && active === 0)}
                  triggerClassName="btn py-2 text-sm"
                >
                  {sendAt ? `Schedule for ${formatScheduledTime(sendAt)}` : `Send to ${subscribersLabel(active ?? 0)}`}
                </ConfirmButton>
              </div>
            )}
            {refusal && (
              <p role="alert" className="mt-2 font-semibold text-signal-dark">
                {refusal}
              </p>
            )}
          </div>
        </div>
      </div>

      <div className="mt-6">
        <h3 className="font-bold">Send history</h3>
        {history.error && (
          <p role="alert" className="mt-2 font-semibold text-signal-dark">
            {history.error.message}
          </p>
        )}
        {history.data && sends.length === 0 && <p className="mt-2 text-slate">Not sent yet.</p>}
        {sends.length > 0 && (
          <ul className="mt-2 space-y-3" aria-label="Sends">
            {sends.map((send) => (
              <SendEntry key={send.id} listed={send} postId={post.id} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** "Send test": one preview of the email to the address given. */
function TestSend({ postId }: { postId: number }) {
  return <TestSendForm title="Send test" send={(address) => callApi(routes.test, { body: { postId, email: address } })} />;
}

/** One send of the post: its status and counts, polled every second while it runs; its failures. */
function SendEntry({ listed, postId }: { listed: NewsletterSend; postId: number }) {
  const queryClient = useQueryClient();
  const live = useQuery({
    queryKey: sendKey(listed.id),
    queryFn: () => callApi(routes.get, { params: { id: listed.id } }),
    initialData: listed,
    refetchInterval: (query) => pollEvery(query.state.data),
  });
  const send = live.data;
  const wasRunning = useRef(running(send) || notStarted(send));
  useEffect(() => {
    // Done: the history and the failed list catch up once, and the polling has stopped.
    if (wasRunning.current && !running(send) && !notStarted(send)) {
      void queryClient.invalidateQueries({ queryKey: historyKey(postId) });
      void queryClient.invalidateQueries({ queryKey: failedKey(send.id) });
    }
    wasRunning.current = running(send) || notStarted(send);
  }, [send, postId, queryClient]);

  const failed = useQuery({
    queryKey: failedKey(send.id),
    queryFn: () => callApi(routes.failed, { params: { id: send.id } }),
    enabled: send.failed > 0 && !running(send),
  });
  const retry = useMutation({
    mutationFn: () => callApi(routes.retry, { params: { id: send.id } }),
    onSuccess: (answer) => {
      queryClient.setQueryData(sendKey(send.id), answer);
      showToast({
        title: "Retrying Failed",
        description: `${String(send.failed)} failed ${send.failed === 1 ? "address is" : "addresses are"} being sent again.`,
      });
    },
    onError: (error) => showErrorToast(error.message),
  });

  const settle = (answer: NewsletterSend) => {
    queryClient.setQueryData(sendKey(send.id), answer);
    void queryClient.invalidateQueries({ queryKey: historyKey(postId) });
  };
  const resume = useMutation({
    mutationFn: () => callApi(routes.resume, { params: { id: send.id } }),
    onSuccess: (answer) => {
      settle(answer);
      showToast({ title: "Send Resumed", description: "The rest of the list is being sent." });
    },
    onError: (error) => showErrorToast(error.message),
  });
  const cancel = useMutation({
    mutationFn: () => callApi(routes.cancel, { params: { id: send.id } }),
    onSuccess: (answer) => {
      settle(answer);
      showToast({ title: "Send Cancelled", description: "Nobody else gets this send." });
    },
    onError: (error) => showErrorToast(error.message),
  });

  const handled = send.sent + send.failed + send.skipped;
  const figures = [
    ["Delivered", send.delivered, send.rates.delivered],
    ["Bounced", send.bounced, send.rates.bounced],
    ["Soft bounced", send.softBounced, send.rates.softBounced],
    ["Complaints", send.complained, send.rates.complained],
    ["Unsubscribed", send.unsubscribed, send.rates.unsubscribed],
  ] as const;
  const counts = [
    ["Sent", send.sent],
    ["Failed", send.failed],
    ["Skipped", send.skipped],
    ["Pending", send.pending],
  ] as const;
  return (
    <li className="border-3 border-ink bg-white p-3" aria-label={`Send of ${dateTime.format(new Date(send.createdAt))}`}>
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className={send.status === "sent" ? "admin-badge admin-badge-on" : "admin-badge"} role="status">
          {statusLabels[send.status]}
        </span>
        {send.startedAt ? (
          <span>Started {dateTime.format(new Date(send.startedAt))}</span>
        ) : send.sendAt ? (
          <span>Send at {formatScheduledTime(send.sendAt)}</span>
        ) : (
          <span>Asked {dateTime.format(new Date(send.createdAt))}</span>
        )}
        {send.finishedAt && <span>Finished {dateTime.format(new Date(send.finishedAt))}</span>}
        <span data-testid="send-audience">To: {send.segment === null ? "everyone" : <code className="break-all">{send.segment}</code>}</span>
      </p>
      {send.pausedReason !== null && running(send) && (
        // The provider fails as a whole: every recipient stays pending and the send tries again on its own.
        <p role="status" className="mt-2 break-words border-3 border-ink bg-paper p-2 text-sm" data-paused>
          <strong>Paused: {send.pausedReason}</strong>
          {send.pausedUntil && <span className="text-slate"> — trying again at {dateTime.format(new Date(send.pausedUntil))}</span>}
        </p>
      )}
      {(notStarted(send) || send.status === "preparing") && (
        // Not started (what it waits for: the time, the post's page) or preparing (its recipients are fixed in batches; the
        // total comes once the last one is): either way nobody has been sent it yet, and the owner may still cancel it.
        <div
          className="mt-2 break-words border-3 border-ink bg-paper p-2 text-sm"
          data-waiting={notStarted(send) || undefined}
          data-preparing={send.status === "preparing" || undefined}
        >
          {send.status === "preparing" ? (
            <p role="status">{preparingText(send.prepared)}</p>
          ) : send.statusReason ? (
            <p role="alert" className="font-semibold">
              {send.statusReason}
            </p>
          ) : (
            <p>
              {send.status === "scheduled"
                ? "Starts at its time, once the post's page is live, with everyone subscribed then."
                : "Waiting for the post's page to be live on the site: it starts on its own once the page answers."}
            </p>
          )}
          <ConfirmButton
            label="Cancel send"
            title="Cancel this send?"
            description="Nobody gets this send, and the post can't be sent again. This can't be undone."
            confirmLabel="Cancel send"
            onConfirm={() => cancel.mutate()}
            disabled={cancel.isPending}
            triggerClassName="btn btn-light mt-2 py-2 text-sm"
          >
            Cancel send
          </ConfirmButton>
        </div>
      )}
      {send.status === "failed" && send.statusReason && (
        <p role="status" className="mt-2 break-words text-sm font-semibold">
          {send.statusReason}
        </p>
      )}
      {send.status === "paused" && (
        // Its figures stopped it: the owner reads why and chooses.
        <div role="alert" className="mt-2 break-words border-3 border-ink bg-amber/20 p-2 text-sm" data-auto-paused>
          <p className="font-semibold">{send.pausedReason}</p>
          <div className="mt-2 flex flex-wrap gap-2">
            <button type="button" className="btn py-2 text-sm" onClick={() => resume.mutate()} disabled={resume.isPending || cancel.isPending}>
              Resume
            </button>
            <ConfirmButton
              label="Cancel send"
              title="Cancel this send?"
              description={`${String(send.pending)} pending ${send.pending === 1 ? "subscriber gets" : "subscribers get"} nothing. This can't be undone.`}
              confirmLabel="Cancel send"
              onConfirm={() => cancel.mutate()}
              disabled={resume.isPending || cancel.isPending}
              triggerClassName="btn btn-light py-2 text-sm"
            >
              Cancel send
            </ConfirmButton>
          </div>
        </div>
      )}
      {send.status !== "preparing" && (
        // While preparing there is no total yet: the line above says how many so far instead.
        <>
          <progress
            className="admin-progress mt-3"
            value={handled}
            max={Math.max(send.total, 1)}
            aria-label="Send progress"
            aria-valuetext={`${String(handled)} of ${String(send.total)}`}
          />
          <p className="mt-1 flex flex-wrap gap-x-4 text-sm">
            {counts.map(([label, count]) => (
              <span key={label} data-count={label.toLowerCase()}>
                {label}: <strong>{count}</strong>
              </span>
            ))}
            <span>Total: {send.total}</span>
          </p>
        </>
      )}
      <p className="mt-1 flex flex-wrap gap-x-4 text-sm" aria-label="What came back">
        {figures.map(([label, count, rate]) => (
          <span key={label} data-figure={label.toLowerCase()}>
            {label}: <strong>{count}</strong> <span className="text-slate">({percent(rate)})</span>
          </span>
        ))}
      </p>
      {send.failed > 0 && !running(send) && (
        <div className="mt-3">
          <h4 className="text-sm font-bold uppercase tracking-wide">Failed addresses</h4>
          {failed.error && (
            <p role="alert" className="font-semibold text-signal-dark">
              {failed.error.message}
            </p>
          )}
          {failed.data && (
            <ul className="mt-1 space-y-1 text-sm" aria-label="Failed addresses">
              {failed.data.map((recipient) => (
                <li key={recipient.email} className="break-words">
                  <span className="font-semibold">{recipient.email}</span>
                  {recipient.error && <span className="text-slate"> — {recipient.error}</span>}
                </li>
              ))}
            </ul>
          )}
          <button type="button" className="btn btn-light mt-2 py-2 text-sm" onClick={() => retry.mutate()} disabled={retry.isPending}>
            Retry failed
          </button>
        </div>
      )}
    </li>
  );
}
