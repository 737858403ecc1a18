import { NotFoundError } from "../errors.ts";
import { enqueueMail, startDelivery, type DeliveryStart, type OutboxMessage, type RenderedMail } from "../mail/outbox.ts";
import type { MailDeps } from "../mail/person-mail.ts";
import { sequenceStepNotFoundMessage } from "./sequence.schema.ts";
import { previewSequenceStep } from "./sequence-email.ts";
import { getSequence } from "./sequences.service.ts";

/**
 * "Send a test" of a saved step (issue 41 point 6): one message to the address given, queued in the
 * outbox (delivered after the answer, retried through an outage) and made from the step as saved
 * when it is delivered, as the newsletter's test send is. It is nobody's subscription: its
 * unsubscribe link leads nowhere, it carries no one-click header, and it is in no one's history.
 */
export async function sendSequenceStepTest(
  deps: Pick<MailDeps, "db" | "site" | "now"> & DeliveryStart,
  input: { key: string; stepId: number; email: string },
): Promise<void> {
  // Checked now, so the owner hears at once of a step that is not saved in this sequence (404).
  const sequence = await getSequence(deps, input.key);
  if (!sequence.steps.some((step) => step.id === input.stepId)) throw new NotFoundError(sequenceStepNotFoundMessage);
  await enqueueMail(deps.db, deps, { kind: "sequence-test", subscriberId: null, to: input.email, sequenceStepId: input.stepId });
  startDelivery(deps);
}

/** A queued step test's message, at delivery: the step as saved now (a step removed since drops the row with it). */
export async function renderSequenceStepTest(deps: Pick<MailDeps, "db" | "site" | "urls">, message: OutboxMessage): Promise<RenderedMail> {
  const { rows } = await deps.db.query<{ subject: string; html: string; download_id: number | null }>(
    `SELECT st.subject, st.html, sq.download_id FROM sequence_steps st JOIN sequences sq ON sq.id = st.sequence_id
      WHERE st.id = $1 AND st.deleted_at IS NULL`,
    [message.sequenceStepId],
  );
  const step = rows[0];
  if (!step) throw new NotFoundError(sequenceStepNotFoundMessage);
  const key = step.download_id === null ? "welcome" : `download-${String(step.download_id)}`;
  const email = await previewSequenceStep(deps, key, step);
  return { subject: `[Test] ${email.subject}`, html: email.html, text: email.text };
}
