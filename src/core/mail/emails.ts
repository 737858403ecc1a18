import { render, toPlainText } from "@react-email/render";
import { createElement as h, type ReactElement } from "react";
import type { EmailContent } from "./email-content.ts";
import { ConfirmationEmail } from "./templates/confirmation-email.ts";
import { DownloadEmail } from "./templates/download-email.ts";
import { WelcomeEmail } from "./templates/welcome-email.ts";

export type { EmailContent } from "./email-content.ts";

/** What every email needs to know about the sender. */
interface SiteIdentity {
  /** The site's name, e.g. "No Filter": the wordmark, subjects and footers. */
  siteName: string;
  /** The site's public address (`SITE_URL`); a trailing slash is fine. */
  siteUrl: string;
  /** The `mailing_address` setting: the postal address every footer shows, line breaks kept. */
  mailingAddress: string;
}

/** The double opt-in email. It carries no unsubscribe link: the person is not subscribed yet. */
export async function renderConfirmationEmail(input: SiteIdentity & { confirmUrl: string }): Promise<EmailContent> {
  const site = siteParts(input);
  return renderEmail(`Confirm your subscription to ${site.siteName}`, h(ConfirmationEmail, { ...site, confirmUrl: input.confirmUrl }));
}

/** Sent when a subscription is confirmed: what to expect and where to start reading. */
export async function renderWelcomeEmail(input: SiteIdentity & { unsubscribeUrl: string }): Promise<EmailContent> {
  const site = siteParts(input);
  return renderEmail(`You're in: welcome to ${site.siteName}`, h(WelcomeEmail, { ...site, unsubscribeUrl: input.unsubscribeUrl }));
}

/**
 * The link to a requested resource (`downloadUrl`, absolute, valid 24 hours). With a `confirmUrl`
 * it also invites the person to confirm the newsletter; pass null when they are subscribed already.
 * `unsubscribeUrl` is null for someone who never subscribed.
 */
export async function renderDownloadEmail(
  input: SiteIdentity & { resourceTitle: string; downloadUrl: string; confirmUrl: string | null; unsubscribeUrl: string | null },
): Promise<EmailContent> {
  const site = siteParts(input);
  const resourceTitle = oneLine(input.resourceTitle);
  return renderEmail(
    `Your download: ${resourceTitle}`,
    h(DownloadEmail, { ...site, resourceTitle, downloadUrl: input.downloadUrl, confirmUrl: input.confirmUrl, unsubscribeUrl: input.unsubscribeUrl }),
  );
}

/** One React render for the HTML; the text part is derived from it rather than rendered again. */
async function renderEmail(subject: string, email: ReactElement): Promise<EmailContent> {
  const html = await render(email);
  return { subject: oneLine(subject), html, text: toPlainText(html).trim() };
}

function siteParts({ siteName, siteUrl, mailingAddress }: SiteIdentity) {
  const base = siteUrl.replace(/\/+$/, "");
  return { siteName: oneLine(siteName), siteUrl: base, siteHost: new URL(base).host, mailingAddress };
}

/** Headers and headings are one line: a title pasted with a line break must not split a subject. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}
