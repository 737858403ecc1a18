import { render, toPlainText } from "@react-email/render";
import type { ReactElement } from "react";

export { ConfirmationEmail } from "./confirmation-email.ts";
export { DigestEmail } from "./digest-email.ts";
export { DownloadEmail } from "./download-email.ts";
export { NewsletterEmail } from "./newsletter-email.ts";
export { ReaderSignInEmail } from "./reader-sign-in-email.ts";
export { WebhookDisabledEmail } from "./webhook-disabled-email.ts";
export { WelcomeEmail } from "./welcome-email.ts";

/**
 * One React render for the HTML; the text part is derived from it rather than rendered again, with
 * never more than one blank line in a row: an image (left out of the text), a paragraph that only
 * held one, or the masthead's sections would otherwise leave a run of empty lines.
 */
export async function renderParts(email: ReactElement): Promise<{ html: string; text: string }> {
  const html = await render(email);
  return { html, text: plainText(html) };
}

/** The text part of an email's HTML: images and HTML-only parts left out, at most one blank line between blocks. */
export function plainText(html: string): string {
  return toPlainText(html)
    .replace(/[ \t\u00a0]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
export { ReceiptEmail } from "./receipt-email.ts";
export { CommentReplyEmail, CommentsWaitingEmail } from "./comment-emails.ts";
