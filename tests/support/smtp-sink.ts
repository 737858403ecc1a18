import type { AddressInfo, Socket } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A message as the sink received it, parsed. */
export interface CaughtMail {
  to: string[];
  subject: string;
  html: string;
  text: string;
  headers: Map<string, unknown>;
  messageId: string | undefined;
  raw: string;
  /** A header as sent (unfolded), e.g. `header("List-Unsubscribe-Post")`. */
  header(name: string): string | undefined;
}

/**
 * A failure of the whole provider the sink can play, switched at run time (`sink.provider(…)`):
 * - `refuse`: every connection is closed at once, before the greeting (the server is down);
 * - `greeting-421`: `421` at the greeting (overloaded, closing the channel);
 * - `auth-535`: `535` to any login (the password was changed) — only a mailer given `authUrl` logs in;
 * - `mail-from-554`: `554` to `MAIL FROM` (the account is suspended);
 * - `rcpt-554`: the same `554` to every recipient, naming each (a provider refusing everyone one by one).
 */
export type ProviderFailure = "refuse" | "greeting-421" | "auth-535" | "mail-from-554" | "rcpt-554";

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`: give it to the mailer. */
  url: string;
  /** The same server with a login (`smtp://sink:secret@…`): a mailer given it authenticates first. */
  authUrl: string;
  /** Plays a failure of the whole provider from now on; `undefined` is the provider back. */
  provider(failure: ProviderFailure | undefined): void;
  /** Everything received so far, oldest first. */
  messages: CaughtMail[];
  /** Messages sent to `address`. */
  to(address: string): CaughtMail[];
  /** How many messages arrived, how many distinct Message-IDs, and how many IDs came more than once. */
  counts(): { received: number; distinct: number; duplicates: number };
  /** Resolves once `count` messages in all have arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<CaughtMail[]>;
  clear(): void;
  stop(): Promise<void>;
}

export interface SmtpSinkOptions {
  /**
   * Refuses a recipient at RCPT TO with this reply code: 4xx is a transient refusal (greylisting,
   * mailbox busy), 5xx a permanent one (no such mailbox). Undefined accepts it (the default for all).
   */
  reject?: (address: string) => 450 | 451 | 550 | 553 | undefined;
  /** The words after the code of a refusal (default: "refused by the test sink: <address>"), e.g. "5.1.1 User unknown". */
  rejectText?: (address: string) => string | undefined;
  /**
   * `messages` (the default) parses and keeps every message; `counts` only counts them and their
   * Message-IDs, without parsing or keeping a body (the benchmark's hundreds of thousands).
   */
  keep?: "messages" | "counts";
  /** Answers each message's data this long after it arrived: a remote provider's pace (the benchmark's 300 ms). */
  delayMs?: number;
}

/** A real SMTP server on a free local port that keeps what it is sent: tests read the mail a user would. */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  const seen = new Map<string, number>();
  let received = 0;
  let failing: ProviderFailure | undefined;
  const refusal = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });
  const count = (head: string) => {
    received += 1;
    const id = /^Message-ID:\s*(\S+)/im.exec(head)?.[1] ?? `(none ${String(received)})`;
    seen.set(id, (seen.get(id) ?? 0) + 1);
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onConnect(_session, callback) {
      if (failing === "greeting-421") return callback(refusal(421, "4.3.2 Service not available, closing transmission channel"));
      callback();
    },
    onAuth(auth, _session, callback) {
      if (failing === "auth-535") return callback(refusal(535, "5.7.8 Authentication credentials invalid"));
      callback(null, { user: auth.username });
    },
    onMailFrom(_address, _session, callback) {
      if (failing === "mail-from-554") return callback(refusal(554, "5.7.1 Account suspended: sending disabled"));
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (failing === "rcpt-554") return callback(refusal(554, `5.7.1 <${address.address}>: Relay access denied`));
      const code = options.reject?.(address.address.toLowerCase());
      if (code === undefined) return callback();
      const text = options.rejectText?.(address.address.toLowerCase()) ?? `refused by the test sink: ${address.address}`;
      callback(Object.assign(new Error(`${String(code)} ${text}`), { responseCode: code }));
    },
    onData(stream, _session, accepted) {
      // A remote provider's pace: the reply to the data comes `delayMs` after it arrived.
      const callback = (error?: Error | null) => {
        if (!options.delayMs) return accepted(error);
        setTimeout(() => accepted(error), options.delayMs);
      };
      if (options.keep === "counts") {
        let head = "";
        stream.on("data", (chunk: Buffer) => {
          if (head.length < 4000) head += chunk.toString();
        });
        stream.on("end", () => {
          count(head);
          callback();
        });
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw)
          .then((parsed) => {
            count(raw);
            messages.push(toCaught(parsed, raw));
            for (const wake of waiters) wake();
            callback();
          })
          .catch((error: unknown) => callback(error as Error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // A connection closed under it (`refuse`) is an error of that connection, not of the sink.
  server.on("error", () => undefined);
  // Before smtp-server's own handler: a refused connection is closed before it is greeted.
  const open = new Set<Socket>();
  server.server.prependListener("connection", (socket: Socket) => {
    if (failing === "refuse") return socket.destroy();
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${String(port)}`,
    authUrl: `smtp://sink:secret@127.0.0.1:${String(port)}`,
    provider(failure) {
      failing = failure;
      // A server that is down drops the connections a pool keeps open too.
      if (failure === "refuse") for (const socket of open) socket.destroy();
    },
    messages,
    to: (address) => messages.filter((message) => message.to.includes(address.toLowerCase())),
    counts: () => ({ received, distinct: seen.size, duplicates: [...seen.values()].filter((times) => times > 1).length }),
    waitFor(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(messages.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${String(count)} messages, got ${String(messages.length)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    clear() {
      messages.length = 0;
      received = 0;
      seen.clear();
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function toCaught(parsed: ParsedMail, raw: string): CaughtMail {
  const to = [parsed.to ?? []].flat().flatMap((address) => address.value.map((entry) => (entry.address ?? "").toLowerCase()));
  return {
    to,
    subject: parsed.subject ?? "",
    html: typeof parsed.html === "string" ? parsed.html : "",
    text: parsed.text ?? "",
    headers: parsed.headers,
    messageId: parsed.messageId,
    raw,
    header(name) {
      const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? "";
      const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
      const line = unfolded.split(/\r?\n/).find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
      return line?.slice(name.length + 1).trim();
    },
  };
}
