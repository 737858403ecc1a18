import { recordSmtpBounce } from "../email-events/email-events.service.ts";
import { renderTestEmail } from "../newsletter/newsletter-test-send.ts";
import { renderSequenceEmail } from "../sequences/sequence-email.ts";
import { subscriberEmailRenderer, type MailDeps } from "../subscribers/subscription-emails.ts";
import { deliverOutbox, type OutboxDeps, type OutboxMessage, type OutboxOptions, type OutboxRun, type RenderedMail } from "./outbox.ts";

/**
 * What delivering the outbox needs: what renders each kind of message, and the mailer;
 * `clickTracking`: sequence emails' links go through the click redirect (CLICK_TRACKING, on unless `off`).
 */
export type OutboxDeliveryDeps = Omit<MailDeps, "waitUntil" | "deliverMail"> &
  Pick<OutboxDeps, "production"> & { clickTracking?: boolean | undefined };

/**
 * Each kind's message, made at delivery by the feature that sends it, marked as sent by a machine
 * (RFC 3834 `Auto-Submitted: auto-generated`): an out-of-office reply is not sent back to it, and
 * filters tell it from a person's mail. Every kind here is transactional, a test send included (it
 * previews a newsletter, and goes to the owner).
 */
function queuedMailRenderer(deps: OutboxDeliveryDeps): (message: OutboxMessage) => Promise<RenderedMail> {
  const subscriberEmail = subscriberEmailRenderer(deps);
  return async (message) => {
    // A sequence step is the newsletter's kind of mail (its footer and headers), not a transactional one.
    if (message.kind === "sequence") return renderSequenceEmail(deps, message);
    const mail = await (message.kind === "newsletter-test" ? renderTestEmail(deps, message) : subscriberEmail(message));
    return { ...mail, headers: { ...mail.headers, "Auto-Submitted": "auto-generated" } };
  };
}

/**
 * One bounded run over the outbox with every kind's renderer: what a request starts after its
 * answer, `npm start`'s timer runs every tick and the every-minute Scheduled Function runs as the
 * safety net. Overlapping runs are safe (see `deliverOutbox`).
 */
export function deliverQueuedMail(deps: OutboxDeliveryDeps, options: OutboxOptions = {}): Promise<OutboxRun> {
  const onUnknownRecipient = (bounce: { ref: string; subscriberId: number; messageId: string; reason: string }) =>
    recordSmtpBounce(deps, { ...bounce, sendId: null });
  return deliverOutbox({ ...deps, onUnknownRecipient }, queuedMailRenderer(deps), options);
}
