import type { SqlQueryable } from "../db/sql-executor.ts";
import { renderConfirmationEmail, renderWelcomeEmail } from "../mail/emails.ts";
import { enqueueMail, type OutboxMessage, type RenderedMail } from "../mail/outbox.ts";
import {
  confirmUrl,
  oneClickHeaders,
  personMailRenderer,
  preferencesUrl,
  unsubscribeUrl,
  type MailDeps,
  type Recipient,
} from "../mail/person-mail.ts";

type QueueDeps = Pick<MailDeps, "site" | "now">;

/** At most one confirmation email per address in this time, so the form cannot bomb an inbox. */
export const confirmationIntervalMs = 10 * 60 * 1000;

/**
 * Queues the double opt-in email for one consent record, on `tx` (the signup's transaction), when
 * `asking` and none was queued in the last `confirmationIntervalMs`: the claim (the subscriber's
 * `confirmation_sent_at`) and the queueing are one statement, which runs whatever the outcome, so a
 * signup takes the same round trips for a new, pending or active address. Answers whether it was
 * queued. It carries no unsubscribe (they are not subscribed yet); its link is signed at delivery.
 */
export async function queueConfirmationEmail(
  tx: SqlQueryable,
  deps: QueueDeps,
  recipient: Recipient,
  consentId: number | undefined,
  asking: boolean,
): Promise<boolean> {
  const now = deps.now();
  const queued = await enqueueMail(
    tx,
    deps,
    { kind: "confirmation", subscriberId: recipient.id, to: recipient.email, consentId: consentId ?? null },
    {
      with: `claim AS (
        UPDATE subscribers SET confirmation_sent_at = $2
         WHERE id = $1 AND $4::boolean AND (confirmation_sent_at IS NULL OR confirmation_sent_at <= $3)
        RETURNING id)`,
      where: "EXISTS (SELECT 1 FROM claim)",
      params: [recipient.id, now, new Date(now.getTime() - confirmationIntervalMs), asking],
    },
  );
  return queued !== undefined;
}

/**
 * Makes one delivery run's queued subscriber emails, at delivery: links are signed now, so a
 * message held back by an outage arrives with a confirmation link valid 7 days and a download link
 * valid 24 hours from then, and the footer shows the settings of the day it is sent. Each kind of
 * email is rendered once a run and filled with each person's links (`renderOnce`).
 */
export function subscriberEmailRenderer(deps: Omit<MailDeps, "mail">): (message: OutboxMessage) => Promise<RenderedMail> {
  return personMailRenderer(deps, async (message, { recipient, identity, shape, once }) => {
    if (message.kind === "confirmation") {
      const links = { confirmUrl: confirmUrl(deps, recipient, message.consentId as number) };
      return once(shape("confirmation"), links, (urls) => renderConfirmationEmail({ ...identity, ...urls }));
    }
    const unsubscribe = unsubscribeUrl(deps, recipient);
    const links = { unsubscribeUrl: unsubscribe, preferencesUrl: preferencesUrl(deps, recipient) };
    const welcome = await once(shape("welcome"), links, (urls) => renderWelcomeEmail({ ...identity, ...urls }));
    return { ...welcome, headers: oneClickHeaders(unsubscribe) };
  });
}
