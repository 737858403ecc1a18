import { createElement as h } from "react";
import { ActionButton, EmailHeading, EmailLayout, Paragraph } from "./email-layout.ts";

export interface ConfirmationEmailProps {
  /** The subject line (the layout's `<title>`). */
  subject: string;
  siteName: string;
  siteUrl: string;
  confirmUrl: string;
  mailingAddress: string;
  /** The site's host name, as the footer names the place the request came from. */
  siteHost: string;
}

/** Double opt-in: the one email a not-yet-subscriber gets, so it has no unsubscribe link. */
export function ConfirmationEmail({ subject, siteName, siteUrl, confirmUrl, mailingAddress, siteHost }: ConfirmationEmailProps) {
  return h(
    EmailLayout,
    {
      subject,
      preview: `Two clicks and you're on the ${siteName} list. Ignore this and nothing happens.`,
      siteName,
      siteUrl,
      reason: `You (or someone using this address) asked to subscribe at ${siteName} (${siteHost}).`,
      mailingAddress,
      unsubscribeUrl: null,
    },
    h(EmailHeading, null, "Confirm your subscription"),
    h(
      Paragraph,
      null,
      `Someone — hopefully you — asked for the ${siteName} newsletter at this address. Press the button, then Confirm on the page it opens: two clicks and you're in.`,
    ),
    h(ActionButton, { href: confirmUrl, label: "Confirm subscription" }),
    h(Paragraph, null, "The link expires in 7 days."),
    h(Paragraph, null, "Didn't ask for this? Ignore this email and nothing happens: no list, no follow-ups."),
  );
}
