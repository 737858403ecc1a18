import { randomBytes } from "node:crypto";
import { recipientTokenPlaceholder } from "./newsletter-message.ts";
import { publishedPost, renderPostNewsletter, type NewsletterDeps } from "./newsletter-sends.ts";

/**
 * "Send test": one preview of a published post's newsletter to one address, before sending it to
 * the list. It is nobody's subscription, so the unsubscribe link in it leads to the page's "this link
 * is not valid" answer and it carries no one-click header; it is not recorded as a send.
 */
export async function sendTestEmail(deps: NewsletterDeps, input: { postId: number; email: string }): Promise<void> {
  const email = await renderPostNewsletter(deps, await publishedPost(deps, input.postId));
  const preview = (value: string) => value.replaceAll(recipientTokenPlaceholder, "preview");
  await deps.mail.send({
    to: input.email,
    subject: `[Test] ${email.subject}`,
    html: preview(email.html),
    text: preview(email.text),
    messageId: deps.site.messageId(`newsletter-test.${randomBytes(12).toString("base64url")}`),
  });
}
