import { createElement as h } from "react";
import { ActionButton, EmailHeading, EmailLayout, Paragraph } from "./email-layout.ts";

export interface NewsletterEmailProps {
  /** The subject line (the layout's `<title>`). */
  subject: string;
  siteName: string;
  siteUrl: string;
  mailingAddress: string;
  /** Why this person gets the newsletter: how they joined (`newsletterReason`). */
  reason: string;
  unsubscribeUrl: string;
  preferencesUrl?: string | undefined;
  topicUnsubscribe?: { name: string; url: string } | undefined;
  title: string;
  /** The inbox preview line: the post's excerpt. */
  preview: string;
  /** The post's HTML, already made email-safe (emailSafeHtml): absolute URLs, inline styles. */
  contentHtml: string;
  /** The post on the site, absolute. */
  postUrl: string;
  /** The site's "Support this work" box (absolute), when payments are on: one link after the post. */
  supportUrl?: string | undefined;
}

/** A post, sent as the newsletter: its title, its content, and the way back to the site. */
export function NewsletterEmail({
  subject,
  siteName,
  siteUrl,
  mailingAddress,
  reason,
  unsubscribeUrl,
  preferencesUrl,
  topicUnsubscribe,
  title,
  preview,
  contentHtml,
  postUrl,
  supportUrl,
}: NewsletterEmailProps) {
  return h(
    EmailLayout,
    {
      subject,
      preview,
      siteName,
      siteUrl,
      reason,
      mailingAddress,
      unsubscribeUrl,
      preferencesUrl,
      topicUnsubscribe,
    },
    h(EmailHeading, null, title),
    h("div", { dangerouslySetInnerHTML: { __html: contentHtml } }),
    h(ActionButton, { href: postUrl, label: "Read it on the site" }),
    supportUrl ? h(Paragraph, null, "No paywall, no ads. If this helped, ", h("a", { href: supportUrl }, "support this work"), ".") : null,
  );
}
