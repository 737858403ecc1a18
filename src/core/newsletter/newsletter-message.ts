import { newsletterReason, type EmailContent } from "../mail/emails.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { escapeHtml } from "../shared/escape-html.ts";
import type { ApiUrls } from "../shared/links.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import { newsletterListId } from "../mail/person-mail.ts";
import { signPollToken, signPreferencesToken, signUnsubscribeToken } from "../mail/subscription-tokens.ts";
import { pollTokenPlaceholders } from "../polls/polls.service.ts";
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

/** Stands for a recipient's preferences token ("Choose what you get"), as the unsubscribe token's placeholder. */
export const recipientPreferencesPlaceholder = "__RECIPIENT_PREFS__";

/**
 * Stand for the topic that put the post in a recipient's inbox ("Unsubscribe from <topic>"): its
 * slug in the link and its name in the words. A recipient with no such topic gets no such line.
 */
export const recipientTopicSlugPlaceholder = "__RECIPIENT_TOPIC_SLUG__";
export const recipientTopicNamePlaceholder = "__RECIPIENT_TOPIC_NAME__";

/** A post's topic as the footer names it. */
export interface PostTopic {
  id: number;
  slug: string;
  name: string;
}

/**
 * The topic that put a post in a reader's inbox (issue 42 point 3): for a reader who follows
 * everything, the post's first topic; otherwise the first topic of the post they follow. Null when
 * the post has no topic, or none the reader follows (a send to everyone by the owner).
 */
export function topicThatSent(postTopics: readonly PostTopic[], reader: { everything: boolean; topicIds: readonly number[] }): PostTopic | null {
  if (reader.everything) return postTopics[0] ?? null;
  return postTopics.find((topic) => reader.topicIds.includes(topic.id)) ?? null;
}

/** A preview (the dashboard's, a test send) shows every placeholder link with a stand-in token. */
export function previewLinks(value: string): string {
  return value
    .replaceAll(recipientTokenPlaceholder, "preview")
    .replaceAll(recipientPreferencesPlaceholder, "preview")
    .replace(pollTokenPlaceholders, "preview");
}

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
  urls: Pick<ApiUrls, "unsubscribe" | "preferences">;
}

export function placeholderUnsubscribeUrl(deps: Pick<MessageNeeds, "site" | "urls">): string {
  return deps.site.absolute(deps.urls.unsubscribe(recipientTokenPlaceholder));
}

/** The "Choose what you get" link with the placeholder for the token, absolute (rendered once per send). */
export function placeholderPreferencesUrl(deps: Pick<MessageNeeds, "site" | "urls">): string {
  return deps.site.absolute(deps.urls.preferences(recipientPreferencesPlaceholder));
}

/** "Unsubscribe from <topic>" with placeholders for the token, the topic's slug and its name. */
export function placeholderTopicUnsubscribe(deps: Pick<MessageNeeds, "site" | "urls">): { name: string; url: string } {
  return {
    name: recipientTopicNamePlaceholder,
    url: deps.site.absolute(deps.urls.preferences(recipientPreferencesPlaceholder, recipientTopicSlugPlaceholder)),
  };
}

/** The footer's paragraph (HTML) or line (text) that names the topic placeholder: gone for a reader with no such topic. */
function withoutTopicLine(value: string, html: boolean): string {
  if (!value.includes(recipientTopicNamePlaceholder)) return value;
  if (html) return value.replace(new RegExp(`<p\\b[^>]*>(?:(?!</p>)[\\s\\S])*${recipientTopicNamePlaceholder}(?:(?!</p>)[\\s\\S])*</p>`, "g"), "");
  return value
    .split("\n")
    .filter((line) => !line.includes(recipientTopicNamePlaceholder) && !line.includes(recipientTopicSlugPlaceholder))
    .join("\n");
}

/**
 * A send's stored email, for one subscriber: their unsubscribe token in the links and headers, and
 * the footer's reason for how they joined (`source`, from `subscribers.source`).
 */
export function personalMessage(
  deps: MessageNeeds,
  email: EmailContent,
  recipient: { sendId: number; subscriberId: number; address: string; source?: string | null; topic?: Pick<PostTopic, "slug" | "name"> | null },
): MailMessage {
  const token = signUnsubscribeToken(deps.signer, recipient.subscriberId);
  const preferences = signPreferencesToken(deps.signer, recipient.subscriberId);
  const reason = newsletterReason(recipient.source ?? null, { siteName: deps.site.name, siteUrl: deps.site.url });
  const click = recipientClickToken(deps.signer, recipient.sendId, recipient.subscriberId);
  const topic = recipient.topic ?? null;
  const personal = (value: string, reasonAs: string, html: boolean) =>
    (topic ? value : withoutTopicLine(value, html))
      .replaceAll(recipientTokenPlaceholder, token)
      .replaceAll(recipientPreferencesPlaceholder, preferences)
      .replaceAll(recipientTopicSlugPlaceholder, topic?.slug ?? "")
      .replaceAll(recipientTopicNamePlaceholder, topic ? (html ? escapeHtml(topic.name) : topic.name) : "")
      .replaceAll(recipientReasonPlaceholder, reasonAs)
      .replaceAll(recipientClickPlaceholder, click)
      // Each poll answer's link, signed for this reader, this poll and this answer (issue 42 point 6).
      .replace(pollTokenPlaceholders, (_stand, pollId: string, answerIndex: string) =>
        signPollToken(deps.signer, recipient.subscriberId, Number(pollId), Number(answerIndex)),
      );
  return {
    to: recipient.address,
    subject: email.subject,
    html: personal(email.html, escapeHtml(reason), true),
    text: personal(email.text, reason, false),
    headers: {
      // RFC 8058's one click keeps meaning the whole newsletter (issue 42 point 3).
      "List-Unsubscribe": `<${personal(placeholderUnsubscribeUrl(deps), reason, false)}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "List-Id": newsletterListId(deps.site),
      "Feedback-ID": newsletterFeedbackId(deps.site, recipient.sendId),
    },
    messageId: newsletterMessageId(deps, recipient.sendId, recipient.subscriberId),
  };
}

export { classifyDeliveryFailure, type DeliveryFailure } from "../mail/delivery-failure.ts";
