import { render, toPlainText } from "@react-email/render";
import type { ReactElement } from "react";

export { ConfirmationEmail } from "./confirmation-email.ts";
export { DownloadEmail } from "./download-email.ts";
export { NewsletterEmail } from "./newsletter-email.ts";
export { WelcomeEmail } from "./welcome-email.ts";

/** One React render for the HTML; the text part is derived from it rather than rendered again. */
export async function renderParts(email: ReactElement): Promise<{ html: string; text: string }> {
  const html = await render(email);
  return { html, text: toPlainText(html).trim() };
}
