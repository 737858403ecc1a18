import { createElement as h } from "react";
import { EmailHeading, EmailLayout, EmailSubheading, LinkBlock, Paragraph } from "./email-layout.ts";

export interface WelcomeEmailProps {
  /** The subject line (the layout's `<title>`). */
  subject: string;
  siteName: string;
  siteUrl: string;
  mailingAddress: string;
  unsubscribeUrl: string;
  preferencesUrl?: string | undefined;
  siteHost: string;
}

/** Sent once the subscription is confirmed: what to expect, and where to start reading. */
export function WelcomeEmail({ subject, siteName, siteUrl, mailingAddress, unsubscribeUrl, preferencesUrl, siteHost }: WelcomeEmailProps) {
  return h(
    EmailLayout,
    {
      subject,
      preview: "One email a week. No spam. Unsubscribe any time.",
      siteName,
      siteUrl,
      reason: `You confirmed your subscription to the ${siteName} newsletter at ${siteHost}.`,
      mailingAddress,
      unsubscribeUrl,
      preferencesUrl,
    },
    h(EmailHeading, null, "You're in"),
    h(Paragraph, null, "Thanks for confirming. Here's the deal, no fine print:"),
    h(Paragraph, null, "One email a week: the wins, the fails and the funding rounds founders don't post on LinkedIn."),
    h(Paragraph, null, "No spam. Unsubscribe any time. It's one click, at the bottom of every email."),
    h(EmailSubheading, null, "Until the first one lands"),
    h(LinkBlock, { href: `${siteUrl}/blog/`, label: "Read the blog" }),
    h(LinkBlock, { href: `${siteUrl}/downloads/`, label: "Grab the free resources" }),
  );
}
