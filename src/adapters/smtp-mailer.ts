import nodemailer from "nodemailer";
import type { Mailer } from "../core/mail/mailer.ts";

/**
 * Email over SMTP with nodemailer, so any provider works (Postmark, SES, Resend, Mailgun, Brevo):
 * `url` is `smtp://` or `smtps://` with the credentials in it; `from` is `Name <address>`.
 * Connections are pooled: a newsletter hands over many messages on a few connections
 * (`maxConnections`), at most `ratePerSecond` a second when the provider caps the rate.
 */
export function smtpMailer(url: string, from: string, options: { maxConnections?: number; ratePerSecond?: number | undefined } = {}): Mailer {
  const rate = options.ratePerSecond ? { rateDelta: 1000, rateLimit: options.ratePerSecond } : {};
  const transport = nodemailer.createTransport({ url, pool: true, maxConnections: options.maxConnections ?? 5, ...rate } as never, { from });
  return {
    async send(message) {
      const info = (await transport.sendMail({
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        ...(message.headers && { headers: message.headers }),
        ...(message.messageId && { messageId: message.messageId }),
      })) as { messageId: string };
      return { messageId: info.messageId };
    },
    close() {
      transport.close();
      return Promise.resolve();
    },
  };
}
