import { useQuery } from "@tanstack/react-query";
import { newsletterSendsRoutes } from "../../../api/routes/newsletter-sends.routes.ts";
import type { ListHealth } from "../../../core/email-events/email-events.schema.ts";
import type { NewsletterSend } from "../../../core/newsletter/newsletter.schema.ts";
import { callApi } from "../api-client.ts";

const percent = (fraction: number) => `${(fraction * 100).toLocaleString("en-US", { maximumFractionDigits: 2 })} %`;

const dateOnly = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

/** How close the complaint rate is to Gmail's line: the bar is full at the line. */
function ComplaintMeter({ health }: { health: ListHealth }) {
  const over = health.complaintRate >= health.complaintLimit;
  return (
    <div className="mt-2">
      <p className="text-sm">
        Spam complaints (30 days):{" "}
        <strong data-health="complaint-rate" className={over ? "text-signal-dark" : ""}>
          {percent(health.complaintRate)}
        </strong>{" "}
        <span className="text-slate">
          ({health.complained} of {health.delivered.toLocaleString("en-US")} delivered) — Gmail&apos;s and Yahoo&apos;s line is{" "}
          {percent(health.complaintLimit)}
        </span>
      </p>
      <meter
        className="mt-1 w-full"
        min={0}
        max={health.complaintLimit * 2}
        low={health.complaintLimit / 3}
        high={health.complaintLimit}
        optimum={0}
        value={Math.min(health.complaintRate, health.complaintLimit * 2)}
        aria-label="Spam complaint rate against Gmail's 0.3 % line"
      />
      {over && (
        <p role="alert" className="mt-1 text-sm font-semibold text-signal-dark">
          Over the line: Gmail and Yahoo may send your mail to spam or refuse it. It counts as recovered only after 7 days below 0.3 %.
        </p>
      )}
    </div>
  );
}

/**
 * The list's health: the 30-day complaint rate against Gmail's 0.3 % line, the hard-bounce rate,
 * who receives nothing because they bounced or complained, and each send's figures.
 */
export function ListHealthPanel() {
  const health = useQuery({ queryKey: [newsletterSendsRoutes.listHealth.path], queryFn: () => callApi(newsletterSendsRoutes.listHealth) });
  const sends = useQuery({
    queryKey: [newsletterSendsRoutes.list.path, "health"],
    queryFn: () => callApi(newsletterSendsRoutes.list, { query: {} }),
  });
  if (health.error) {
    return (
      <p role="alert" className="mt-4 font-semibold text-signal-dark">
        {health.error.message}
      </p>
    );
  }
  const data = health.data;
  if (!data) return null;
  return (
    <section aria-labelledby="list-health-title" className="mt-4 border-3 border-ink bg-paper p-3" data-list-health>
      <h3 id="list-health-title" className="text-sm font-bold uppercase tracking-wide">
        List health
      </h3>
      <ComplaintMeter health={data} />
      <p className="mt-2 text-sm">
        Hard bounces (30 days): <strong data-health="bounce-rate">{percent(data.bounceRate)}</strong>{" "}
        <span className="text-slate">({data.bounced})</span> · Receiving nothing: {data.suppressed.bounced} bounced, {data.suppressed.complained}{" "}
        complained · A send pauses itself at {percent(data.pauseAt.complaintRate)} complaints or {percent(data.pauseAt.bounceRate)} hard bounces (Site
        Settings)
      </p>
      {sends.data && sends.data.length > 0 && <SendFigures sends={sends.data} />}
    </section>
  );
}

function SendFigures({ sends }: { sends: NewsletterSend[] }) {
  return (
    <div className="admin-scroll mt-2 overflow-x-auto" tabIndex={0} role="region" aria-label="Each send's figures">
      <table className="admin-table whitespace-nowrap text-sm">
        <thead>
          <tr>
            <th scope="col">Send</th>
            <th scope="col">Status</th>
            <th scope="col">Delivered</th>
            <th scope="col">Hard bounces</th>
            <th scope="col">Soft bounces</th>
            <th scope="col">Complaints</th>
            <th scope="col">Unsubscribed</th>
          </tr>
        </thead>
        <tbody>
          {sends.map((send) => (
            <tr key={send.id}>
              <td>{dateOnly.format(new Date(send.createdAt))}</td>
              <td>{send.status}</td>
              <td>
                {send.delivered} ({percent(send.rates.delivered)})
              </td>
              <td>
                {send.bounced} ({percent(send.rates.bounced)})
              </td>
              <td>
                {send.softBounced} ({percent(send.rates.softBounced)})
              </td>
              <td>
                {send.complained} ({percent(send.rates.complained)})
              </td>
              <td>
                {send.unsubscribed} ({percent(send.rates.unsubscribed)})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
