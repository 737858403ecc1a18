import { newsletterReason, type EmailContent } from "../mail/emails.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { escapeHtml } from "../shared/escape-html.ts";
import type { ApiUrls } from "../shared/links.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import { newsletterListId } from "../mail/person-mail.ts";
import { signUnsubscribeToken } from "../mail/subscription-tokens.ts";
import { recipientClickPlaceholder, recipientClickToken } from "../stats/newsletter-clicks.ts";

/**
 * Stands for a recipient's unsubscribe token in a send's stored email. Made of characters that
 * neither URLSearchParams nor HTML escape, so it appears verbatim in the HTML, the text and the header.
 */
export const recipientTokenPlaceholder = "__RECIPIENT_TOKEN__";

/**
 * Stands for the footer's reason in a send's stored email: it depends on how each recipient joined
 * (`newsletterReason`). Same characters as the token's placeholder, for the same reason.
 */
export const recipientReasonPlaceholder = "__RECIPIENT_REASON__";

/**
 * The Message-ID of one (send, subscriber) message: derived, never random, so a message handed over
 * again after a crash carries the same one and the receiver can drop the duplicate; and opaque (an
 * HMAC of the pair), so it names no send, row or subscriber. Rotating SESSION_SECRET mid-send
 * changes the IDs of the messages still to go, which only weakens the deduplication of a message
 * handed over on both sides of the rotation.
 */
export function newsletterMessageId(deps: Pick<MessageNeeds, "site" | "signer">, sendId: number, subscriberId: number): string {
  return deps.site.messageId(deps.signer.sign("message-id", `newsletter ${String(sendId)} ${String(subscriberId)}`));
}

/**
 * Gmail's Feedback-ID (`campaign:customer:type:sender`): its postmaster tools report complaints per
 * send. Only the send's number, which names no person.
 */
export function newsletterFeedbackId(site: Pick<Site, "host">, sendId: number): string {
  return `${String(sendId)}:newsletter:bulk:${site.host}`;
}

/** The unsubscribe link with the placeholder for the token, absolute (rendered once per send). */
/** What a send's personal message is made with. */
export interface MessageNeeds {
  site: Site;
  signer: Signer;
  urls: Pick<ApiUrls, "unsubscribe">;
}

export function placeholderUnsubscribeUrl(deps: Pick<MessageNeeds, "site" | "urls">): string {
  return deps.site.absolute(deps.urls.unsubscribe(recipientTokenPlaceholder));
}

/**
 * A send's stored email, for one subscriber: their unsubscribe token in the links and headers, and
 * the footer's reason for how they joined (`source`, from `subscribers.source`).
 */
export function personalMessage(
  deps: MessageNeeds,
  email: EmailContent,
  recipient: { sendId: number; subscriberId: number; address: string; source?: string | null },
): MailMessage {
  const token = signUnsubscribeToken(deps.signer, recipient.subscriberId);
  const reason = newsletterReason(recipient.source ?? null, { siteName: deps.site.name, siteUrl: deps.site.url });
  const click = recipientClickToken(deps.signer, recipient.sendId, recipient.subscriberId);
  const personal = (value: string, reasonAs: string) =>
    value.replaceAll(recipientTokenPlaceholder, token).replaceAll(recipientReasonPlaceholder, reasonAs).replaceAll(recipientClickPlaceholder, click);
  return {
    to: recipient.address,
    subject: email.subject,
    html: personal(email.html, escapeHtml(reason)),
    text: personal(email.text, reason),
    headers: {
      "List-Unsubscribe": `<${personal(placeholderUnsubscribeUrl(deps), reason)}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "List-Id": newsletterListId(deps.site),
      "Feedback-ID": newsletterFeedbackId(deps.site, recipient.sendId),
    },
    messageId: newsletterMessageId(deps, recipient.sendId, recipient.subscriberId),
  };
}

export { classifyDeliveryFailure, type DeliveryFailure } from "../mail/delivery-failure.ts";
