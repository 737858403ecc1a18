import { createElement as h } from "react";
import { EmailHeading, EmailLayout, LinkBlock, Paragraph } from "./email-layout.ts";

export interface WebhookDisabledEmailProps {
  subject: string;
  siteName: string;
  siteUrl: string;
  mailingAddress: string;
  endpointUrl: string;
  reason: string;
  dashboardUrl: string;
}

/** To the owner: an outgoing webhook endpoint failed for 3 days and was switched off. */
export function WebhookDisabledEmail({ subject, siteName, siteUrl, mailingAddress, endpointUrl, reason, dashboardUrl }: WebhookDisabledEmailProps) {
  return h(
    EmailLayout,
    {
      subject,
      preview: "Its events wait until you switch it on again.",
      siteName,
      siteUrl,
      reason: `You run ${siteName}, and this endpoint is one of its webhooks.`,
      mailingAddress,
      unsubscribeUrl: null,
    },
    h(EmailHeading, null, "A webhook endpoint was switched off"),
    h(Paragraph, null, `Every delivery to ${endpointUrl} failed for 3 days, so it was switched off.`),
    h(Paragraph, null, reason),
    h(Paragraph, null, "Its events wait: switch it on again in the dashboard once it answers, and send the failed ones again from its log."),
    h(LinkBlock, { href: dashboardUrl, label: "Open the integrations" }),
  );
}
