/**
 * The SMTP transport of `threadedSmtpMailer`, in a worker thread: it builds and hands over each
 * message the main thread posts, and answers with the Message-ID or the failure's SMTP details.
 */
import { parentPort, workerData } from "node:worker_threads";
import { smtpMailer } from "../../src/adapters/smtp-mailer.ts";
import type { SmtpFailure, SmtpThreadReply, SmtpThreadRequest, SmtpThreadSettings } from "./threaded-mailer.ts";

const settings = workerData as SmtpThreadSettings;
const mailer = smtpMailer(settings.url, settings.from, settings.options);
const port = parentPort;
if (!port) throw new Error("smtp-thread.ts runs as a worker thread");

function failureOf(error: unknown): SmtpFailure {
  const details = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown>;
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(typeof details.responseCode === "number" && { responseCode: details.responseCode }),
    ...(typeof details.response === "string" && { response: details.response }),
    ...(typeof details.code === "string" && { code: details.code }),
    ...(typeof details.command === "string" && { command: details.command }),
  };
}

port.on("message", (request: SmtpThreadRequest) => {
  if (request.kind === "close") {
    void mailer.close().then(() => port.close());
    return;
  }
  mailer.send(request.message).then(
    ({ messageId }) => port.postMessage({ ok: true, id: request.id, messageId } satisfies SmtpThreadReply),
    (error: unknown) => port.postMessage({ ok: false, id: request.id, failure: failureOf(error) } satisfies SmtpThreadReply),
  );
});
