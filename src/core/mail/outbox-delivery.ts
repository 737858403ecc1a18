import { renderTestEmail } from "../newsletter/newsletter-test-send.ts";
import { renderSubscriberEmail, type MailDeps } from "../subscribers/subscription-emails.ts";
import { deliverOutbox, type OutboxDeps, type OutboxMessage, type OutboxOptions, type OutboxRun, type RenderedMail } from "./outbox.ts";

/** What delivering the outbox needs: what renders each kind of message, and the mailer. */
export type OutboxDeliveryDeps = Omit<MailDeps, "waitUntil" | "deliverMail"> & Pick<OutboxDeps, "production">;

/** Each kind's message, made at delivery by the feature that sends it. */
function renderQueued(deps: OutboxDeliveryDeps, message: OutboxMessage): Promise<RenderedMail> {
  return message.kind === "newsletter-test" ? renderTestEmail(deps, message) : renderSubscriberEmail(deps, message);
}

/**
 * One bounded run over the outbox with every kind's renderer: what a request starts after its
 * answer, `npm start`'s timer runs every tick and the every-minute Scheduled Function runs as the
 * safety net. Overlapping runs are safe (see `deliverOutbox`).
 */
export function deliverQueuedMail(deps: OutboxDeliveryDeps, options: OutboxOptions = {}): Promise<OutboxRun> {
  return deliverOutbox(deps, (message) => renderQueued(deps, message), options);
}
