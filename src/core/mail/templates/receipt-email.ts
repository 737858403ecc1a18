import { createElement as h } from "react";
import { EmailHeading, EmailLayout, LinkBlock, Paragraph } from "./email-layout.ts";

export interface ReceiptEmailProps {
  subject: string;
  siteName: string;
  siteUrl: string;
  mailingAddress: string;
  /** "€12.00": formatted by the caller. */
  amount: string;
  /** What was paid for: the resource's title, or "A tip". */
  itemTitle: string;
  /** The paid resource's signed download link (absolute); null for a tip. */
  downloadUrl: string | null;
  /** How long the download link stays valid, in words ("30 days"). */
  linkLifetime: string;
  /** A membership's "manage your membership" link (absolute): Stripe's Customer Portal, to change or cancel. */
  manageUrl?: string | null;
}

/** To a buyer or a tipper: what they paid, and for a resource its download link. */
export function ReceiptEmail({
  subject,
  siteName,
  siteUrl,
  mailingAddress,
  amount,
  itemTitle,
  downloadUrl,
  linkLifetime,
  manageUrl,
}: ReceiptEmailProps) {
  return h(
    EmailLayout,
    {
      subject,
      preview: downloadUrl ? `Your download of ${itemTitle} is ready.` : "Thank you for your support.",
      siteName,
      siteUrl,
      reason: `You paid ${siteName} through Stripe; this is your receipt.`,
      mailingAddress,
      unsubscribeUrl: null,
    },
    h(EmailHeading, null, "Thank you"),
    h(Paragraph, null, `${itemTitle}: ${amount}, paid through Stripe. Stripe sends its own receipt for your records.`),
    ...(downloadUrl
      ? [
          h(Paragraph, null, `Your download link works for ${linkLifetime}; open it again from this email whenever you need the file.`),
          h(LinkBlock, { href: downloadUrl, label: "Download the file" }),
        ]
      : []),
    ...(manageUrl
      ? [
          h(Paragraph, null, "As a supporter, every paid resource is yours free while your membership lasts. Change or cancel it any time:"),
          h(LinkBlock, { href: manageUrl, label: "Manage your membership" }),
        ]
      : []),
  );
}
