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
 * The headers a DKIM signature covers when the message has them: nodemailer's list (RFC 6376 §5.4's
 * suggestions and the List-* headers) plus what Gmail and Yahoo read from a bulk sender and RFC 8058
 * §4 requires signed — `List-Unsubscribe-Post` beside `List-Unsubscribe` — and `Feedback-ID` and
 * `Auto-Submitted`, so no relay can add, drop or change them unnoticed. A name the message lacks is
 * left out of `h=`.
 */
const dkimSignedHeaders =
  "From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:" +
  "Content-ID:Content-Description:In-Reply-To:References:" +
  "List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive:" +
  "Feedback-ID:Auto-Submitted";

/**
 * Email over SMTP with nodemailer, so any provider works (Postmark, SES, Resend, Mailgun, Brevo):
 * `url` is `smtp://` or `smtps://` with the credentials in it; `from` is `Name <address>`.
 * Connections are pooled: a newsletter hands over many messages on a few connections
 * (`maxConnections`), at most `ratePerSecond` a second when the provider caps the rate.
 */
export function smtpMailer(url: string, from: string, options: SmtpMailerOptions = {}): Mailer {
  const rate = options.ratePerSecond ? { rateDelta: 1000, rateLimit: options.ratePerSecond } : {};
  const dkim = options.dkim ? { dkim: { ...options.dkim, headerFieldNames: dkimSignedHeaders } } : {};
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
