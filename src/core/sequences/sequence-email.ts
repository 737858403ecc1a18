import { createElement as h } from "react";
import { ConflictError, NotFoundError } from "../errors.ts";
import { newsletterReason } from "../mail/emails.ts";
import { emailSafeHtml, withoutLeadingMargin } from "../mail/email-safe-html.ts";
import type { OutboxMessage, RenderedMail } from "../mail/outbox.ts";
import { recipientClickToken, trackLinks } from "../stats/newsletter-clicks.ts";
import { newsletterListId, preferencesUrl, siteIdentity, unsubscribeUrl, type MailDeps } from "../mail/person-mail.ts";
import { sanitizePostHtml } from "../posts/sanitize-post-html.ts";

export const sequenceStepGoneMessage = "Not sent: this step is no longer queued for this person";
export const sequenceLeftMessage = "Not sent: this person left the newsletter before this step went out";

/** React Email loads on the first render (see emails.ts): a process that sends no sequence pays nothing. */
const layout = () => import("../mail/templates/email-layout.ts");
const templates = () => import("../mail/templates/templates.ts");

/**
 * Gmail's Feedback-ID (`campaign:customer:type:sender`, as `newsletterFeedbackId`) for a sequence
 * step: its postmaster tools report complaints per campaign, and each step is one (`s<sequence>x<step>`;
 * a field may hold no colon). The type is `sequence`, so it is never read as a newsletter send's
 * (`sendOfFeedbackId`). Only the numbers of the sequence and step, which name no person.
 */
export function sequenceFeedbackId(site: Pick<MailDeps["site"], "host">, sequenceId: number, stepId: number): string {
  return `s${String(sequenceId)}x${String(stepId)}:sequence:bulk:${site.host}`;
}

/**
 * A queued sequence step, made at delivery with the words it was queued with (an edit since changes
 * only what was not queued), in the newsletter's frame: the footer says why the person gets it, and
 * carries the unsubscribe link and the one-click headers (RFC 8058) as a newsletter does. Someone
 * who left since it was queued gets nothing (the row fails with the reason). Unless click tracking
 * is off (`CLICK_TRACKING=off`), the body's web links go through the newsletter's signed click
 * redirect: the step's links (stored once per step, position and address, so an email queued
 * before an edit keeps working links) with this person's token.
 */
export async function renderSequenceEmail(
  deps: Omit<MailDeps, "mail"> & { clickTracking?: boolean | undefined },
  message: OutboxMessage,
): Promise<RenderedMail> {
  if (message.subscriberStatus !== "active") throw new ConflictError(sequenceLeftMessage);
  const { rows } = await deps.db.query<{ step_id: number; sequence_id: number; subject: string; html: string; source: string | null }>(
    `SELECT d.step_id, e.sequence_id, d.subject, d.html, s.source FROM sequence_deliveries d
       JOIN sequence_enrollments e ON e.id = d.enrollment_id JOIN subscribers s ON s.id = e.subscriber_id
      WHERE d.message_id = $1`,
    [message.messageId],
  );
  const step = rows[0];
  if (!step || message.subscriberId === null) throw new NotFoundError(sequenceStepGoneMessage);
  const identity = await siteIdentity(deps);
  const siteUrl = deps.site.url;
  const unsubscribe = unsubscribeUrl(deps, { id: message.subscriberId, email: message.to });
  const subject = step.subject.replace(/\s+/g, " ").trim();
  const body = withoutLeadingMargin(emailSafeHtml(step.html, siteUrl));
  const clickUrl = deps.clickTracking ? deps.urls.newsletterClick : undefined;
  const html = clickUrl
    ? await trackLinks(
        deps.db,
        { signer: deps.signer, site: deps.site, clickUrl },
        { stepId: step.step_id },
        body,
        recipientClickToken(deps.signer, { stepId: step.step_id }, message.subscriberId),
      )
    : body;
  const parts = await stepEmail({
    subject,
    html,
    siteName: identity.siteName,
    siteUrl,
    reason: newsletterReason(step.source, { siteName: identity.siteName, siteUrl }),
    mailingAddress: identity.mailingAddress,
    unsubscribeUrl: unsubscribe,
    preferencesUrl: preferencesUrl(deps, { id: message.subscriberId }),
  });
  return {
    subject,
    ...parts,
    headers: {
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "List-Id": newsletterListId(deps.site),
      "Feedback-ID": sequenceFeedbackId(deps.site, step.sequence_id, step.step_id),
    },
  };
}

/** A step's email in the newsletter's frame: its subject, its body (already made email-safe), the footer's reason and unsubscribe link. */
async function stepEmail(input: {
  subject: string;
  html: string;
  siteName: string;
  siteUrl: string;
  reason: string;
  mailingAddress: string;
  unsubscribeUrl: string;
  /** The reader's "Choose what you get" page; none in a preview or a test (nobody's subscription). */
  preferencesUrl?: string;
}): Promise<{ html: string; text: string }> {
  const [{ EmailLayout }, { renderParts }] = await Promise.all([layout(), templates()]);
  const { html, ...frame } = input;
  const email = h(EmailLayout, { ...frame, preview: input.subject }, h("div", { dangerouslySetInnerHTML: { __html: html } }));
  return renderParts(email);
}

/**
 * A step as it would be mailed, from the words in the editor (saved or not): for the dashboard's
 * Preview (issue 41 point 6). The body is sanitized as a saved step's is; the footer names the
 * reason of the people the sequence goes to and an unsubscribe link that leads nowhere (nobody's
 * subscription).
 */
export async function previewSequenceStep(
  deps: Pick<MailDeps, "db" | "site" | "urls">,
  sequenceKey: string,
  step: { subject: string; html: string },
): Promise<{ subject: string; html: string; text: string }> {
  const identity = await siteIdentity(deps);
  const siteUrl = deps.site.url;
  const subject = step.subject.replace(/\s+/g, " ").trim();
  const body = withoutLeadingMargin(emailSafeHtml(sanitizePostHtml(step.html, deps.urls.isFile), siteUrl));
  const parts = await stepEmail({
    subject,
    html: body,
    siteName: identity.siteName,
    siteUrl,
    // A resource's sequence goes to people who joined for the resource: its footer says so.
    reason: newsletterReason(sequenceKey.startsWith("download-") ? "download" : "newsletter", { siteName: identity.siteName, siteUrl }),
    mailingAddress: identity.mailingAddress,
    unsubscribeUrl: deps.site.absolute(deps.urls.unsubscribe("preview")),
  });
  return { subject, ...parts };
}
