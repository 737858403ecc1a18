import type { SqlExecutor } from "../db/sql-executor.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import type { Clock } from "../shared/clock.ts";
import type { ApiUrls } from "../shared/links.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import type { Mailer } from "./mailer.ts";
import { signConfirmToken, signUnsubscribeToken } from "./subscription-tokens.ts";

/**
 * Mail for a person: what every feature that writes to someone (a confirmation, a download link, a
 * newsletter, a sequence step) says the same way. It lives in the mail room so that no feature has
 * to import another one to send a message.
 */

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
export function oneClickHeaders(unsubscribe: string): Record<string, string> {
  return { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/**
 * The list's identity (RFC 2919), the same for every send, so a reader's filters and a provider's
 * reputation follow the newsletter, not each issue. The name is kept to plain words (atoms): a
 * quoted one would be MIME-encoded by nodemailer, which filters do not read as a list name.
 */
export function newsletterListId(site: Pick<Site, "name" | "host">): string {
  const name = site.name.replace(/[^\w !#$%&'*+/=?^`{|}~-]/g, "").trim();
  return `${name ? `${name} ` : ""}<newsletter.${site.host}>`;
}
