/** One email, ready to hand over: both parts, and any headers it must carry. */
export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058). */
  headers?: Record<string, string>;
  /**
   * `<id@domain>`: the same every time this message is handed over, so a receiver can drop a
   * duplicate. Without it the transport makes one up.
   */
  messageId?: string;
}

/**
 * The seam between domain code and whatever delivers email: an SMTP provider in production, the
 * local catcher under `npm start`, a real SMTP sink in tests.
 */
export interface Mailer {
  /** Resolves once the SMTP server accepted the message, with its Message-ID. */
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): Promise<void>;
}

/** No SMTP server is configured, so nothing can be sent. */
export class MailNotConfiguredError extends Error {
  constructor() {
    super("No email can be sent: SMTP_URL is not set (your provider's smtp:// or smtps:// URL)");
    this.name = "MailNotConfiguredError";
  }
}
