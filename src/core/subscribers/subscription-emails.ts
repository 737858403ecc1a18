import { signDownloadLink } from "../downloads/download-link.ts";
import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { NotFoundError } from "../errors.ts";
import { renderConfirmationEmail, renderDownloadEmail, renderWelcomeEmail } from "../mail/emails.ts";
import type { Mailer } from "../mail/mailer.ts";
import { enqueueMail, type OutboxMessage, type RenderedMail } from "../mail/outbox.ts";
import { renderOnce } from "../mail/render-once.ts";
import { resourceGoneMessage } from "../messages.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import type { Clock } from "../shared/clock.ts";
import type { ApiUrls } from "../shared/links.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import { signConfirmToken, signUnsubscribeToken } from "./subscription-tokens.ts";

/** What sending a subscriber an email needs. */
export interface MailDeps {
  db: SqlExecutor;
  mail: Mailer;
  now: Clock["now"];
  urls: ApiUrls;
  site: Site;
  signer: Signer;
  /** Keeps the platform running for work that outlives the answer (Netlify's `context.waitUntil`). */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  /** Delivers the outbox now, in a bounded run (started after an answer through `waitUntil`; see `startDelivery`). */
  deliverMail?: (() => Promise<unknown>) | undefined;
}

/** The kinds of a subscriber's email, as `subscriber_emails` (their personal export) records them. */
export type SubscriberEmailKind = "confirmation" | "welcome" | "download" | "newsletter" | "sequence";

/** Who an email goes to. */
export interface Recipient {
  id: number;
  email: string;
}

/** The confirmation link for one consent record, absolute, valid 7 days. */
export function confirmUrl(deps: Pick<MailDeps, "site" | "signer" | "now" | "urls">, recipient: Recipient, consentId: number): string {
  return deps.site.absolute(deps.urls.confirmSubscription(signConfirmToken(deps.signer, recipient.id, consentId, deps.now())));
}

/** The unsubscribe link (page and RFC 8058 one-click endpoint), absolute; it never expires. */
export function unsubscribeUrl(deps: Pick<MailDeps, "site" | "signer" | "urls">, recipient: Recipient): string {
  return deps.site.absolute(deps.urls.unsubscribe(signUnsubscribeToken(deps.signer, recipient.id)));
}

/** Who an email is from: the site's name, address and the postal address footers show. */
export async function siteIdentity(deps: Pick<MailDeps, "db" | "site">) {
  const settings = await siteSettingValues(deps);
  return { siteName: deps.site.name, siteUrl: deps.site.url, mailingAddress: settings.mailing_address };
}

/** The one-click headers (RFC 8058) of a message that carries an unsubscribe link. */
function oneClickHeaders(unsubscribe: string): Record<string, string> {
  return { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

type QueueDeps = Pick<MailDeps, "site" | "now">;

/** At most one confirmation email per address in this time, so the form cannot bomb an inbox. */
export const confirmationIntervalMs = 10 * 60 * 1000;

/**
 * Queues the double opt-in email for one consent record, on `tx` (the signup's transaction), when
 * `asking` and none was queued in the last `confirmationIntervalMs`: the claim (the subscriber's
 * `confirmation_sent_at`) and the queueing are one statement, which runs whatever the outcome, so a
 * signup takes the same round trips for a new, pending or active address. Answers whether it was
 * queued. It carries no unsubscribe (they are not subscribed yet); its link is signed at delivery.
 */
export async function queueConfirmationEmail(
  tx: SqlQueryable,
  deps: QueueDeps,
  recipient: Recipient,
  consentId: number | undefined,
  asking: boolean,
): Promise<boolean> {
  const now = deps.now();
  const queued = await enqueueMail(
    tx,
    deps,
    { kind: "confirmation", subscriberId: recipient.id, to: recipient.email, consentId: consentId ?? null },
    {
      with: `claim AS (
        UPDATE subscribers SET confirmation_sent_at = $2
         WHERE id = $1 AND $4::boolean AND (confirmation_sent_at IS NULL OR confirmation_sent_at <= $3)
        RETURNING id)`,
      where: "EXISTS (SELECT 1 FROM claim)",
      params: [recipient.id, now, new Date(now.getTime() - confirmationIntervalMs), asking],
    },
  );
  return queued !== undefined;
}

/** The same resource is emailed to an address at most once in this time. */
export const downloadEmailIntervalMs = 10 * 60 * 1000;

/**
 * Queues a requested resource's email (with the newsletter invitation when `consentId` is given)
 * unless this resource was queued for this subscriber within `downloadEmailIntervalMs` and has not
 * failed: the download form cannot bomb an inbox, and whoever asked again has the link in the
 * answer. Answers whether it was queued. Atomic when `tx` holds the subscriber's row lock (taken by
 * `recordDownloadRequester`'s upsert): concurrent requests for one address take turns, and each
 * sees the row the one before it committed — 10 parallel requests queue one email.
 */
export async function queueDownloadEmail(
  tx: SqlQueryable,
  deps: QueueDeps,
  recipient: Recipient,
  input: { downloadId: number; consentId: number | null },
): Promise<boolean> {
  const queued = await enqueueMail(
    tx,
    deps,
    { kind: "download", subscriberId: recipient.id, to: recipient.email, downloadId: input.downloadId, consentId: input.consentId },
    {
      where: `NOT EXISTS (SELECT 1 FROM outbox
                           WHERE subscriber_id = $1 AND download_id = $2 AND kind = 'download' AND status <> 'failed' AND created_at > $3)`,
      params: [recipient.id, input.downloadId, new Date(deps.now().getTime() - downloadEmailIntervalMs)],
    },
  );
  return queued !== undefined;
}

/**
 * Makes one delivery run's queued subscriber emails, at delivery: links are signed now, so a
 * message held back by an outage arrives with a confirmation link valid 7 days and a download link
 * valid 24 hours from then, and the footer shows the settings of the day it is sent. Each kind of
 * email is rendered once a run and filled with each person's links (`renderOnce`).
 */
export function subscriberEmailRenderer(deps: Omit<MailDeps, "mail">): (message: OutboxMessage) => Promise<RenderedMail> {
  const once = renderOnce();
  // One run's messages share the settings of its start: a footer changed mid-run shows from the next.
  let identityRead: ReturnType<typeof siteIdentity> | undefined;
  return async (message) => {
    const recipient = { id: message.subscriberId as number, email: message.to };
    const identity = await (identityRead ??= siteIdentity(deps));
    const shape = (kind: string, extra: object = {}) => JSON.stringify({ kind, ...identity, ...extra });
    if (message.kind === "confirmation") {
      const links = { confirmUrl: confirmUrl(deps, recipient, message.consentId as number) };
      return once(shape("confirmation"), links, (urls) => renderConfirmationEmail({ ...identity, ...urls }));
    }
    const unsubscribe = unsubscribeUrl(deps, recipient);
    if (message.kind === "welcome") {
      const welcome = await once(shape("welcome"), { unsubscribeUrl: unsubscribe }, (urls) => renderWelcomeEmail({ ...identity, ...urls }));
      return { ...welcome, headers: oneClickHeaders(unsubscribe) };
    }
    const downloadId = message.downloadId;
    const { rows } = await deps.db.query<{ title: string }>("SELECT title FROM downloads WHERE id = $1", [downloadId]);
    const resource = rows[0];
    if (downloadId === null || !resource) throw new NotFoundError(resourceGoneMessage);
    const downloadUrl = deps.site.absolute(deps.urls.downloadFile(downloadId, signDownloadLink(deps.signer, downloadId, deps.now(), recipient.id)));
    const content =
      message.consentId === null
        ? await once(shape("download", { resourceTitle: resource.title }), { downloadUrl, unsubscribeUrl: unsubscribe }, (urls) =>
            renderDownloadEmail({ ...identity, resourceTitle: resource.title, confirmUrl: null, ...urls }),
          )
        : await once(
            shape("download-invitation", { resourceTitle: resource.title }),
            { downloadUrl, unsubscribeUrl: unsubscribe, confirmUrl: confirmUrl(deps, recipient, message.consentId) },
            (urls) => renderDownloadEmail({ ...identity, resourceTitle: resource.title, ...urls }),
          );
    return { ...content, headers: oneClickHeaders(unsubscribe) };
  };
}
