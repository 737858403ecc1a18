import { randomBytes } from "node:crypto";
import type { SqlExecutor } from "../db/sql-executor.ts";
import type { EmailContent } from "../mail/emails.ts";
import { renderConfirmationEmail, renderDownloadEmail, renderWelcomeEmail } from "../mail/emails.ts";
import type { Mailer } from "../mail/mailer.ts";
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
  /** Keeps the platform running for a send that outlives the answer (Netlify's `context.waitUntil`). */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

export type SubscriberEmailKind = "confirmation" | "welcome" | "download" | "newsletter";

/** Who an email goes to. */
export interface Recipient {
  id: number;
  email: string;
}

/**
 * How long an answer waits for the SMTP server. A healthy provider accepts a message in well under
 * a second; past this the answer goes out and the send goes on (kept alive by `waitUntil`).
 */
export const mailWaitMs = 5000;

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

/**
 * Sends one email to a subscriber and records it (kind, subject, Message-ID, time) for their
 * personal export. With `unsubscribe`, it carries RFC 8058's one-click headers.
 */
async function sendAndRecord(
  deps: MailDeps,
  recipient: Recipient,
  kind: SubscriberEmailKind,
  content: EmailContent,
  unsubscribe: string | null,
  downloadId: number | null = null,
): Promise<void> {
  const messageId = deps.site.messageId(`${kind}.${String(recipient.id)}.${randomBytes(12).toString("base64url")}`);
  const headers = unsubscribe ? { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : undefined;
  const sent = await deps.mail.send({ to: recipient.email, ...content, ...(headers && { headers }), messageId });
  await deps.db.query(
    "INSERT INTO subscriber_emails (subscriber_id, kind, subject, message_id, sent_at, download_id) VALUES ($1, $2, $3, $4, $5, $6)",
    [recipient.id, kind, content.subject, sent.messageId, deps.now(), downloadId],
  );
}

/**
 * Runs a send, waiting at most `mailWaitMs` for it. A failure is logged ("[mail] …") and handed to
 * `onFailure`, never thrown: the person already has their answer (a link, or "check your inbox"),
 * and a mail outage must not turn it into an error.
 */
export async function deliver(deps: Partial<Pick<MailDeps, "waitUntil">>, label: string, send: () => Promise<void>, onFailure?: () => Promise<void>) {
  const delivery = send().then(
    () => "sent" as const,
    async (error: unknown) => {
      console.error(`[mail] ${label} failed:`, error);
      await onFailure?.().catch((cleanupError: unknown) => console.error(`[mail] ${label}: cleanup after the failure failed:`, cleanupError));
      return "failed" as const;
    },
  );
  deps.waitUntil?.(delivery);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), mailWaitMs);
  });
  const outcome = await Promise.race([delivery, late]);
  clearTimeout(timer);
  if (outcome === "late") console.warn(`[mail] ${label}: the SMTP server is slow; answering without waiting for it`);
}

/** The double opt-in email for one consent record: no unsubscribe (they are not subscribed yet). */
export async function sendConfirmationEmail(deps: MailDeps, recipient: Recipient, consentId: number): Promise<void> {
  const content = await renderConfirmationEmail({ ...(await siteIdentity(deps)), confirmUrl: confirmUrl(deps, recipient, consentId) });
  await sendAndRecord(deps, recipient, "confirmation", content, null);
}

/** Sent once a subscription is confirmed. */
export async function sendWelcomeEmail(deps: MailDeps, recipient: Recipient): Promise<void> {
  const unsubscribe = unsubscribeUrl(deps, recipient);
  const content = await renderWelcomeEmail({ ...(await siteIdentity(deps)), unsubscribeUrl: unsubscribe });
  await sendAndRecord(deps, recipient, "welcome", content, unsubscribe);
}

/** The same resource is emailed to an address at most once in this time. */
export const downloadEmailIntervalMs = 10 * 60 * 1000;

/**
 * True when this resource was emailed to this subscriber within `downloadEmailIntervalMs`: the
 * download form cannot bomb an inbox, and whoever asked again has the link in the answer.
 */
export async function downloadEmailedRecently(deps: Pick<MailDeps, "db" | "now">, subscriberId: number, downloadId: number): Promise<boolean> {
  const { rows } = await deps.db.query(
    "SELECT 1 FROM subscriber_emails WHERE subscriber_id = $1 AND download_id = $2 AND kind = 'download' AND sent_at > $3 LIMIT 1",
    [subscriberId, downloadId, new Date(deps.now().getTime() - downloadEmailIntervalMs)],
  );
  return rows.length > 0;
}

/** A requested resource's link, with the newsletter invitation when `consentId` is given. */
export async function sendDownloadEmail(
  deps: MailDeps,
  recipient: Recipient,
  input: { downloadId: number; resourceTitle: string; downloadPath: string; consentId: number | null },
): Promise<void> {
  const unsubscribe = unsubscribeUrl(deps, recipient);
  const content = await renderDownloadEmail({
    ...(await siteIdentity(deps)),
    resourceTitle: input.resourceTitle,
    downloadUrl: deps.site.absolute(input.downloadPath),
    confirmUrl: input.consentId === null ? null : confirmUrl(deps, recipient, input.consentId),
    unsubscribeUrl: unsubscribe,
  });
  await sendAndRecord(deps, recipient, "download", content, unsubscribe, input.downloadId);
}
