import nodemailer from "nodemailer";
import type { Mailer } from "../core/mail/mailer.ts";

export interface SmtpMailerOptions {
  maxConnections?: number;
  ratePerSecond?: number | undefined;
  /**
   * Sign every message with DKIM (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY): for owners who relay
   * through a server that does not sign for them. Plain data, so it crosses to the SMTP thread.
   */
  dkim?: { domainName: string; keySelector: string; privateKey: string } | undefined;
}

/**
 * Email over SMTP with nodemailer, so any provider works (Postmark, SES, Resend, Mailgun, Brevo):
 * `url` is `smtp://` or `smtps://` with the credentials in it; `from` is `Name <address>`.
 * Connections are pooled: a newsletter hands over many messages on a few connections
 * (`maxConnections`), at most `ratePerSecond` a second when the provider caps the rate.
 */
export function smtpMailer(url: string, from: string, options: SmtpMailerOptions = {}): Mailer {
  const rate = options.ratePerSecond ? { rateDelta: 1000, rateLimit: options.ratePerSecond } : {};
  const dkim = options.dkim ? { dkim: options.dkim } : {};
  const transport = nodemailer.createTransport({ url, pool: true, maxConnections: options.maxConnections ?? 5, ...rate, ...dkim } as never, { from });
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
