import type { SqlExecutor } from "../db/sql-executor.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import type { Clock } from "../shared/clock.ts";
import type { ApiUrls } from "../shared/links.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import type { Mailer } from "./mailer.ts";
import type { OutboxMessage, RenderedMail } from "./outbox.ts";
import { renderOnce, type RenderOnce } from "./render-once.ts";
import { signConfirmToken, signPreferencesToken, signUnsubscribeToken } from "./subscription-tokens.ts";

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

/** The "Choose what you get" page (topics and frequency), absolute; it never expires. `unfollow`: a topic's slug, ready to unfollow. */
export function preferencesUrl(deps: Pick<MailDeps, "site" | "signer" | "urls">, recipient: Pick<Recipient, "id">, unfollow?: string): string {
  return deps.site.absolute(deps.urls.preferences(signPreferencesToken(deps.signer, recipient.id), unfollow));
}

/** Who an email is from: the site's name, address and the postal address footers show. */
export async function siteIdentity(deps: Pick<MailDeps, "db" | "site">) {
  const settings = await siteSettingValues(deps);
  return { siteName: deps.site.name, siteUrl: deps.site.url, mailingAddress: settings.mailing_address };
}

/** One message to a person in a delivery run, as a renderer of person mail is given it (`personMailRenderer`). */
export interface PersonMailParts {
  recipient: Recipient;
  /** The sender, read once at the run's first message. */
  identity: Awaited<ReturnType<typeof siteIdentity>>;
  /** The key of an email's shape (`renderOnce`): its kind, the sender, and whatever else it shows (`extra`). */
  shape: (kind: string, extra?: object) => string;
  /** The run's cache of rendered shapes. */
  once: RenderOnce;
}

/**
 * A delivery run's renderer of mail to one subscriber (a confirmation, a welcome, a download's
 * email), with what each of them starts with: the recipient of the row, the sender's identity read
 * once a run (a footer changed mid-run shows from the next run, and a run of 500 messages reads the
 * settings once), and one `renderOnce` cache for the run, keyed by `shape`.
 */
export function personMailRenderer(
  deps: Pick<MailDeps, "db" | "site">,
  render: (message: OutboxMessage, parts: PersonMailParts) => Promise<RenderedMail>,
): (message: OutboxMessage) => Promise<RenderedMail> {
  const once = renderOnce();
  let identityRead: ReturnType<typeof siteIdentity> | undefined;
  return async (message) => {
    const recipient = { id: message.subscriberId as number, email: message.to };
    const identity = await (identityRead ??= siteIdentity(deps));
    const shape = (kind: string, extra: object = {}) => JSON.stringify({ kind, ...identity, ...extra });
    return render(message, { recipient, identity, shape, once });
  };
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
