import { Worker } from "node:worker_threads";
import type { SmtpMailerOptions } from "../../src/adapters/smtp-mailer.ts";
import type { Mailer, MailMessage } from "../../src/core/mail/mailer.ts";

export interface SmtpThreadSettings {
  url: string;
  from: string;
  /** Passed whole to `smtpMailer` in the thread (the DKIM key included: plain data, cloned). */
  options: SmtpMailerOptions;
}

export type SmtpThreadRequest = { kind: "send"; id: number; message: MailMessage } | { kind: "close" };

export type SmtpThreadReply = { ok: true; id: number; messageId: string } | { ok: false; id: number; failure: SmtpFailure };

/** What `classifyDeliveryFailure` reads from a failure: a cloned Error would keep only its message. */
export interface SmtpFailure {
  message: string;
  responseCode?: number;
  response?: string;
  code?: string;
  /** The SMTP step that failed (`MAIL FROM`, `RCPT TO`…): a refusal at `MAIL FROM` is the provider's, not the recipient's. */
  command?: string;
}

/**
 * `smtpMailer` run in a worker thread. Under `npm start` one thread serves the pages, the API and
 * the embedded database; building each newsletter message (MIME, quoted-printable) and talking SMTP
 * on a thread of its own leaves that thread to the database and the site (decision 0020). Same contract: `send` resolves once the server accepted the message, and rejects
 * with an Error that carries the server's `responseCode`, `response`, nodemailer's `code` and the
 * `command` that failed (what `classifyDeliveryFailure` reads).
 */
export function threadedSmtpMailer(url: string, from: string, options: SmtpThreadSettings["options"] = {}): Mailer {
  const worker = new Worker(new URL("./smtp-thread.ts", import.meta.url), { workerData: { url, from, options } satisfies SmtpThreadSettings });
  const waiting = new Map<number, { resolve: (messageId: string) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let stopped: Error | undefined;
  // Idle, the thread does not keep the process alive; with messages on their way it does.
  worker.unref();
  const failAll = (error: Error) => {
    stopped = error;
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  };
  worker.on("message", (reply: SmtpThreadReply) => {
    const entry = waiting.get(reply.id);
    if (!entry) return;
    waiting.delete(reply.id);
    if (waiting.size === 0) worker.unref();
    if (reply.ok) {
      entry.resolve(reply.messageId);
      return;
    }
    entry.reject(Object.assign(new Error(reply.failure.message), reply.failure));
  });
  worker.on("error", (error: Error) => failAll(error));
  worker.on("exit", (code) => failAll(new Error(`The SMTP thread stopped (exit code ${String(code)})`)));
  return {
    send(message) {
      if (stopped) return Promise.reject(stopped);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve: (messageId) => resolve({ messageId }), reject });
        worker.ref();
        worker.postMessage({ kind: "send", id, message } satisfies SmtpThreadRequest);
      });
    },
    async close() {
      if (stopped) return;
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      worker.postMessage({ kind: "close" } satisfies SmtpThreadRequest);
      // nodemailer closes its connections at once; a server that never answers does not hold up a stop.
      const giveUp = setTimeout(() => void worker.terminate(), 5000);
      await exited;
      clearTimeout(giveUp);
    },
  };
}
