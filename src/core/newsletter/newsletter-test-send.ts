import { enqueueMail, startDelivery, type DeliveryStart, type OutboxMessage, type RenderedMail } from "../mail/outbox.ts";
import { previewLinks } from "./newsletter-message.ts";
import { publishedPost, renderPostNewsletter, type NewsletterDeps } from "./newsletter-sends.ts";

/**
 * "Send test": one preview of a published post's newsletter to one address, before sending it to
 * the list. It is queued in the outbox (delivered after the answer, retried through an outage) and
 * rendered when it is delivered. It is nobody's subscription, so the unsubscribe link in it leads
 * to the page's "this link is not valid" answer and it carries no one-click header; it is not
 * recorded as a send.
 */
export async function sendTestEmail(deps: NewsletterDeps & DeliveryStart, input: { postId: number; email: string }): Promise<void> {
  // Checked now, so the owner hears at once of a post that is not published (400) or gone (404).
  await publishedPost(deps, input.postId);
  await enqueueMail(deps.db, deps, { kind: "newsletter-test", subscriberId: null, to: input.email, postId: input.postId });
  startDelivery(deps);
}

/** A queued test send's message, at delivery (a post unpublished or deleted since refuses: the row fails). */
export async function renderTestEmail(deps: Pick<NewsletterDeps, "db" | "site" | "urls">, message: OutboxMessage): Promise<RenderedMail> {
  const email = await renderPostNewsletter(deps, await publishedPost(deps, message.postId as number));
  const preview = previewLinks;
  return { subject: `[Test] ${email.subject}`, html: preview(email.html), text: preview(email.text) };
}
