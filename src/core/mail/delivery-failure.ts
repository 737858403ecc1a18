/**
 * How a failed hand-over is treated: retried later (`transient`), given up with the server's reply
 * (`permanent`, about this recipient), or a failure of the whole provider (`provider`: the send and
 * the outbox pause and every row stays pending; docs/decisions/0027-provider-outages-pause.md).
 */
export type DeliveryFailure = { kind: "transient" | "permanent" | "provider"; reason: string };

/**
 * The steps of an SMTP session that are about the provider, not the recipient: nodemailer names the
 * command that failed (`command` on its errors, lib smtp-connection). A refusal there (a `421` at the
 * greeting, `535` at AUTH, `554` account suspended at MAIL FROM) would refuse every message alike.
 */
const providerCommands = new Set(["CONN", "EHLO", "HELO", "LHLO", "STARTTLS", "MAIL FROM", "RSET"]);

/** nodemailer's codes for a connection that could not be made or kept, or a login refused. */
const providerCodes = new Set(["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ETLS", "EAUTH", "EPROTOCOL"]);

interface SmtpErrorDetails {
  code?: unknown;
  command?: unknown;
  responseCode?: unknown;
  response?: unknown;
  message?: unknown;
  name?: unknown;
}

/**
 * Reads a failed hand-over: connection, greeting, login and `MAIL FROM` failures (and no SMTP
 * server configured) are the provider's; then, for a recipient's own step (`RCPT TO`, `DATA`), a 5xx
 * reply is permanent and a 4xx reply or none is transient. The newsletter's workers and the outbox
 * read failures the same way.
 */
export function classifyDeliveryFailure(error: unknown): DeliveryFailure {
  const details = (typeof error === "object" && error !== null ? error : {}) as SmtpErrorDetails;
  const reason = String(details.response ?? details.message ?? error).slice(0, 500);
  const code = typeof details.responseCode === "number" ? details.responseCode : undefined;
  const command = typeof details.command === "string" ? details.command : "";
  if (
    details.name === "MailNotConfiguredError" ||
    providerCommands.has(command) ||
    command.startsWith("AUTH") ||
    (typeof details.code === "string" && providerCodes.has(details.code)) ||
    // 421: the server is closing the channel, whatever the step (RFC 5321 §3.8).
    code === 421
  ) {
    return { kind: "provider", reason };
  }
  return { kind: code !== undefined && code >= 500 && code < 600 ? "permanent" : "transient", reason };
}

/** Waits before a transient failure is tried again: 1, 2, 4, 8… minutes, at most 30. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
}

/** How many identical 5xx replies to different recipients in a row make a provider failure. */
export const providerStreakLength = 5;

/** A reply with every address in it taken out, so replies to different recipients compare equal. */
export function replyWithoutAddress(reply: string): string {
  return reply
    .replace(/<?[^\s<>@]+@[^\s<>]+>?/g, "<address>")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Spots a provider refusing everyone one recipient at a time: `providerStreakLength` permanent
 * replies in a row with the same text (addresses taken out), to different recipients. A different
 * reply or the same recipient again starts over. `record` answers the rows of the run once it is
 * long enough, and from then on each further row met by the same reply (messages in flight when it
 * tripped): they were the provider's failures, not their recipients' — the caller gives them back.
 * A message accepted (`reset`) starts over.
 */
export function providerStreak<Row>(length = providerStreakLength) {
  let reply = "";
  let tripped = false;
  let rows: { row: Row; address: string }[] = [];
  return {
    record(row: Row, address: string, failure: DeliveryFailure): Row[] | undefined {
      const text = replyWithoutAddress(failure.reason);
      if (tripped) return text === reply ? [row] : undefined;
      const lower = address.toLowerCase();
      if (text !== reply || rows.some((entry) => entry.address === lower)) rows = [];
      reply = text;
      rows.push({ row, address: lower });
      if (rows.length < length) return undefined;
      tripped = true;
      return rows.map((entry) => entry.row);
    },
    /** The rows of the run so far, while it has not tripped (a refusal among them may be the provider's). */
    rows(): Row[] {
      return tripped ? [] : rows.map((entry) => entry.row);
    },
    reset() {
      rows = [];
      reply = "";
      tripped = false;
    },
  };
}

/**
 * How long a paused delivery waits before it tries the provider again: 1 minute, then every 2. A
 * try costs one connection, and mail must go out within two minutes of the provider's return
 * (issue 27), however long the outage lasted. `fixedMs`, when set, is every pause's length instead
 * (`npm start` given PROVIDER_PAUSE_MS: the browser tests, which would otherwise wait a real minute).
 */
export const maxPauseMs = 2 * 60_000;
export function pauseDelayMs(pauses: number, fixedMs?: number): number {
  return fixedMs ?? Math.min(retryDelayMs(pauses + 1), maxPauseMs);
}

/**
 * A permanent refusal that says the address does not exist (RFC 3463 `5.1.x`, or the usual words
 * for it): the same as a hard bounce heard later — the subscriber becomes `bounced` (issue 28).
 */
export function isUnknownRecipient(failure: DeliveryFailure): boolean {
  if (failure.kind !== "permanent") return false;
  return (
    /\b5\.1\.\d{1,2}\b/.test(failure.reason) ||
    /user unknown|unknown user|no such (user|mailbox|recipient)|(mailbox|address|recipient) does not exist/i.test(failure.reason)
  );
}
