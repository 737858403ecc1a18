import { createElement as h } from "react";
import { ActionButton, Divider, EmailHeading, EmailLayout, EmailSubheading, Paragraph } from "./email-layout.ts";

export interface DownloadEmailProps {
  /** The subject line (the layout's `<title>`). */
  subject: string;
  siteName: string;
  siteUrl: string;
  resourceTitle: string;
  downloadUrl: string;
  /** The newsletter invitation's link; null when the person is subscribed already. */
  confirmUrl: string | null;
  mailingAddress: string;
  /** Null for someone who never subscribed: there is nothing to leave. */
  unsubscribeUrl: string | null;
  siteHost: string;
}

/** The requested resource's link, and an invitation to the newsletter for those not on it yet. */
export function DownloadEmail(props: DownloadEmailProps) {
  const { subject, siteName, siteUrl, resourceTitle, downloadUrl, confirmUrl, mailingAddress, unsubscribeUrl, siteHost } = props;
  return h(
    EmailLayout,
    {
      subject,
      preview: `Here's ${resourceTitle}. The link works for 24 hours.`,
      siteName,
      siteUrl,
      reason: `You asked for ${resourceTitle} at ${siteName} (${siteHost}).`,
      mailingAddress,
      unsubscribeUrl,
    },
    h(EmailHeading, null, "Your download"),
    h(Paragraph, null, "Here it is: ", h("strong", null, resourceTitle), ". Free, as promised."),
    h(ActionButton, { href: downloadUrl, label: "Download now" }),
    h(Paragraph, null, "The link works for 24 hours. Missed it? Ask again on the site — it's still free."),
    confirmUrl && [
      h(Divider, { key: "divider" }),
      h(EmailSubheading, { key: "title" }, "Want the rest?"),
      h(
        Paragraph,
        { key: "pitch" },
        "One email a week with the stories and resources founders actually use. No spam. Unsubscribe any time. Confirm and you're in; skip it and this is the only email you get.",
      ),
      h(ActionButton, { key: "confirm", href: confirmUrl, label: "Confirm subscription" }),
      h(Paragraph, { key: "expiry" }, "That link expires in 7 days."),
    ],
  );
}
