import { downloadEmailRenderer } from "../core/downloads/download-email.ts";
import { recordSmtpBounce, type EmailEventsDeps } from "../core/email-events/email-events.service.ts";
import type { QueuedMailRenderers } from "../core/mail/outbox-delivery.ts";
import type { OutboxDeps, RenderQueued } from "../core/mail/outbox.ts";
import type { MailDeps } from "../core/mail/person-mail.ts";
import { renderTestEmail } from "../core/newsletter/newsletter-test-send.ts";
import { renderDigest } from "../core/newsletter/weekly-digest.ts";
import { readerSignInEmailRenderer } from "../core/readers/reader-sign-in.ts";
import { renderSequenceEmail } from "../core/sequences/sequence-email.ts";
import { renderSequenceStepTest } from "../core/sequences/sequence-test-send.ts";
import { subscriberEmailRenderer } from "../core/subscribers/subscription-emails.ts";
import { renderWebhookDisabled } from "../core/webhooks/webhooks.service.ts";
import { receiptEmailRenderer } from "../core/payments/payments.service.ts";
import { renderCommentReply, renderCommentsWaiting } from "../core/comments/comment-notices.ts";

/** What the renderers read: the person-mail needs, and whether sequence links go through the click redirect. */
export type MailKindsDeps = Omit<MailDeps, "mail" | "waitUntil" | "deliverMail"> & { clickTracking?: boolean | undefined };

/**
 * Marks a message as sent by a machine (RFC 3834 `Auto-Submitted: auto-generated`): an
 * out-of-office reply is not sent back to it, and filters tell it from a person's mail. Every kind
 * but a sequence step is transactional, a test send included (it previews a newsletter, and goes to
 * the owner); a sequence step is the newsletter's kind of mail (its footer and headers).
 */
function transactional(render: RenderQueued): RenderQueued {
  return async (message) => {
    const mail = await render(message);
    return { ...mail, headers: { ...mail.headers, "Auto-Submitted": "auto-generated" } };
  };
}

/**
 * Each kind of queued mail and the feature that makes its message, for one delivery run. A new kind
 * of delivery is one row here (and its value in `OutboxKind`) plus its own renderer beside its feature.
 */
export function queuedMailRenderers(deps: MailKindsDeps): QueuedMailRenderers {
  const subscriberEmail = transactional(subscriberEmailRenderer(deps));
  return {
    confirmation: subscriberEmail,
    welcome: subscriberEmail,
    download: transactional(downloadEmailRenderer(deps)),
    "newsletter-test": transactional((message) => renderTestEmail(deps, message)),
    sequence: (message) => renderSequenceEmail(deps, message),
    "sequence-test": transactional((message) => renderSequenceStepTest(deps, message)),
    // The newsletter's kind of mail, as a sequence step: its footer and one-click headers.
    digest: (message) => renderDigest(deps, message),
    "webhook-disabled": transactional((message) => renderWebhookDisabled(deps, message)),
    receipt: transactional(receiptEmailRenderer(deps)),
    "reader-sign-in": transactional(readerSignInEmailRenderer(deps)),
    "comments-waiting": transactional(() => renderCommentsWaiting(deps)),
    "comment-reply": transactional((message) => renderCommentReply(deps, message)),
  };
}

/** The outbox's SMTP-bounce hook: a recipient refused as unknown (5.1.x) makes the subscriber `bounced`. */
export function recordOutboxBounce(
  deps: Pick<EmailEventsDeps, "db" | "now">,
  bounce: Parameters<NonNullable<OutboxDeps["onUnknownRecipient"]>>[0],
): Promise<unknown> {
  return recordSmtpBounce(deps, { ...bounce, sendId: null });
}
