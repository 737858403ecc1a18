import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { simpleParser, type AddressObject, type ParsedMail } from "mailparser";
import sanitizeHtml from "sanitize-html";
import { SMTPServer } from "smtp-server";

/** One caught message as the inbox lists it. */
export interface CaughtMailSummary {
  /** Sortable and unique: the time it arrived, then a random part. */
  id: string;
  /** The recipients' addresses. */
  to: string[];
  /** As written in From: `Name <address>`. */
  from: string;
  subject: string;
  /** When the catcher received it (ISO 8601). */
  date: string;
}

/** One caught message, parsed: what its page and the JSON view show. */
export interface CaughtMail extends CaughtMailSummary {
  messageId: string | undefined;
  html: string | undefined;
  text: string;
  /** Each header as sent, unfolded, in order: `List-Unsubscribe`, `Message-ID`… */
  headerLines: { name: string; value: string }[];
  /** Every `href` of the HTML part (entities decoded), in order, without repeats. */
  links: string[];
}

export interface MailCatcherOptions {
  /** Where the caught mail is kept: one `<id>.eml` per message plus `index.json`. */
  dir: string;
  /** Port on 127.0.0.1; 0 (the default) takes a free one. */
  port?: number;
  /** How many messages to keep; the oldest go first. Default 500. */
  keep?: number;
  /** Called after each message is stored (e.g. to log it). */
  onMessage?: (summary: CaughtMailSummary) => void;
  /** How long a played outage lasts. Default `providerOutageMs`; the browser tests play a shorter one (MAIL_CATCHER_OUTAGE_MS). */
  outageMs?: number;
}

export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>`: no authentication, no TLS. */
  url: string;
  /** Newest first. */
  list(): CaughtMailSummary[];
  /** The parsed message, or undefined for an unknown id. */
  read(id: string): Promise<CaughtMail | undefined>;
  /** The message as received (an .eml), or undefined for an unknown id. */
  raw(id: string): Promise<Buffer | undefined>;
  close(): Promise<void>;
}

/**
 * Recipients the catcher refuses the first time it is asked to take them, and accepts after: a
 * failed send and its retry can then be tried for real (`refuse-once+<anything>@<any domain>`).
 */
export const refusedOncePattern = /^refuse-once(\+[^@]*)?@/i;

/**
 * The reply a refused-once recipient gets at RCPT TO, as a mail server with a full mailbox answers:
 * refused for good this time, yet the address exists (a `5.1.x` "no such mailbox" would make the
 * subscriber `bounced`, and "Retry failed" would rightly skip them).
 */
export const refusedOnceReply = "5.2.2 Mailbox full (refused once by the local mail catcher)";

/**
 * The address that plays a provider outage: the first time it is sent to, the catcher answers
 * `421` to it and then to every message (at MAIL FROM) for `providerOutageMs` (or `outageMs`), as a provider that is down answers everyone — for
 * the browser test of a paused send and paused transactional mail (`provider-outage+<anything>@…`).
 */
export const providerOutagePattern = /^provider-outage(\+[^@]*)?@/i;

/** How long a played outage lasts unless the catcher is told otherwise (`outageMs`). */
export const providerOutageMs = 20_000;

/** The reply during a played outage: the provider's, not about any recipient. */
export const providerOutageReply = "4.3.2 Service not available (a provider outage played by the local mail catcher)";

const indexFile = "index.json";
const idPattern = /^[0-9a-z]+-[0-9a-f]{8}$/;
const maxMessageBytes = 10 * 1024 * 1024;

/**
 * A local SMTP server that keeps what it is sent, like Mailpit: `npm start` hands its URL to the
 * mailer when no SMTP_URL is set, so signing up works with no account and the email shows in the
 * local inbox page. Mail is kept on disk so it survives a restart. It refuses one kind of address
 * once (`refusedOncePattern`), for the browser tests of a failed send, and plays a provider outage
 * when asked to take another (`providerOutagePattern`).
 */
export async function startMailCatcher(options: MailCatcherOptions): Promise<MailCatcher> {
  const keep = options.keep ?? 500;
  await mkdir(options.dir, { recursive: true });
  let summaries = (await readIndex(options.dir)) ?? (await rebuildIndex(options.dir));
  const parsed = new Map<string, Promise<CaughtMail>>();
  let dropped: string[] = [];

  // One index write at a time; the messages that arrive meanwhile share the next one. Rewriting
  // the index for each message, and reading each one's links on arrival, halved the rate a burst
  // of mail was taken at (66–133 against 161–254 messages/s, measured side by side).
  let running: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  const persist = (): Promise<void> => {
    if (!queued) {
      queued = running.then(async () => {
        queued = undefined;
        const gone = dropped;
        dropped = [];
        await writeIndex(options.dir, summaries);
        await Promise.all(gone.map((id) => rm(path.join(options.dir, `${id}.eml`), { force: true })));
      });
      running = queued.catch(() => undefined);
    }
    return queued;
  };

  const store = async (raw: Buffer): Promise<void> => {
    const id = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
    // Only what the list shows: the rest (links above all) is read when the message is opened.
    const summary = summaryOf(id, new Date(), await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true }));
    await writeFile(path.join(options.dir, `${id}.eml`), raw);
    summaries = [summary, ...summaries];
    for (const old of summaries.splice(keep)) {
      parsed.delete(old.id);
      dropped.push(old.id);
    }
    // Accepted (250) once the index that lists it is on disk.
    await persist();
    options.onMessage?.(summary);
  };

  const refused = new Set<string>();
  let outageUntil = 0;
  // Each outage address plays its outage once, then is taken like any other.
  const played = new Set<string>();
  const outage = () => Object.assign(new Error(providerOutageReply), { responseCode: 421 });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    size: maxMessageBytes,
    logger: false,
    // Stopping `npm start` should not wait for an idle pooled connection.
    closeTimeout: 1000,
    onMailFrom(_address, _session, callback) {
      if (Date.now() < outageUntil) return callback(outage());
      callback();
    },
    onRcptTo(address, _session, callback) {
      const recipient = address.address.toLowerCase();
      if (providerOutagePattern.test(recipient) && !played.has(recipient)) {
        played.add(recipient);
        outageUntil = Date.now() + (options.outageMs ?? providerOutageMs);
        return callback(outage());
      }
      if (!refusedOncePattern.test(recipient) || refused.has(recipient)) {
        callback();
        return;
      }
      refused.add(recipient);
      callback(Object.assign(new Error(refusedOnceReply), { responseCode: 550 }));
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error("Message too big for the local catcher (10 MB)"), { responseCode: 552 }));
          return;
        }
        store(Buffer.concat(chunks)).then(
          () => callback(),
          (error: unknown) => {
            console.error("[mail] Could not keep a caught message:", error);
            callback(error instanceof Error ? error : new Error(String(error)));
          },
        );
      });
    },
  });
  // smtp-server re-emits its socket's errors: a taken port while listening, then a sender dropping
  // its connection (the sender's business, but without a listener it would end the process).
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      server.on("error", (error) => console.warn(`[mail] ${error.message}`));
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;

  const known = (id: string) => idPattern.test(id) && summaries.some((summary) => summary.id === id);
  const raw = async (id: string) => (known(id) ? readFile(path.join(options.dir, `${id}.eml`)).catch(() => undefined) : undefined);

  return {
    url: `smtp://127.0.0.1:${String(port)}`,
    list: () => summaries.slice(),
    raw,
    async read(id) {
      const summary = summaries.find((candidate) => candidate.id === id);
      if (!summary || !known(id)) return undefined;
      let mail = parsed.get(id);
      if (!mail) {
        const source = await raw(id);
        if (!source) return undefined;
        mail = simpleParser(source).then((message) => toCaughtMail(id, new Date(summary.date), message));
        parsed.set(id, mail);
      }
      return mail;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await running;
    },
  };
}

function summaryOf(id: string, received: Date, message: ParsedMail): CaughtMailSummary {
  return { id, to: addresses(message.to), from: message.from?.text ?? "", subject: message.subject ?? "", date: received.toISOString() };
}

function toCaughtMail(id: string, received: Date, message: ParsedMail): CaughtMail {
  const html = typeof message.html === "string" ? message.html : undefined;
  return {
    ...summaryOf(id, received, message),
    messageId: message.messageId,
    html,
    text: message.text ?? "",
    headerLines: message.headerLines.map(({ key, line }) => ({
      name: line.slice(0, line.indexOf(":")) || key,
      value: line
        .slice(line.indexOf(":") + 1)
        .replace(/\r?\n[ \t]+/g, " ")
        .trim(),
    })),
    links: html === undefined ? [] : linksIn(html),
  };
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return [field ?? []].flat().flatMap((group) => group.value.map((entry) => entry.address ?? entry.name));
}

/**
 * The web and mailto links of an HTML document, read by sanitize-html's parser (so `&amp;` in a URL
 * reads as `&`); other schemes (`javascript:`) are left out, as the inbox shows these as links.
 */
function linksIn(html: string): string[] {
  const links = new Set<string>();
  sanitizeHtml(html, {
    allowedTags: ["a"],
    allowedAttributes: { a: ["href"] },
    transformTags: {
      a: (tagName, attribs) => {
        if (attribs.href && /^(https?|mailto):/i.test(attribs.href)) links.add(attribs.href);
        return { tagName, attribs };
      },
    },
  });
  return [...links];
}

async function readIndex(dir: string): Promise<CaughtMailSummary[] | undefined> {
  try {
    const entries: unknown = JSON.parse(await readFile(path.join(dir, indexFile), "utf8"));
    return Array.isArray(entries) ? (entries as CaughtMailSummary[]).filter((entry) => idPattern.test(entry.id)) : undefined;
  } catch {
    return undefined;
  }
}

/** Without a readable index (first start, or a crash mid-write), the .eml files are the truth. */
async function rebuildIndex(dir: string): Promise<CaughtMailSummary[]> {
  const ids = (await readdir(dir))
    .filter((name) => name.endsWith(".eml"))
    .map((name) => name.slice(0, -".eml".length))
    .filter((id) => idPattern.test(id))
    .sort()
    .reverse();
  const summaries: CaughtMailSummary[] = [];
  for (const id of ids) {
    const received = new Date(parseInt(id.split("-")[0] ?? "0", 36));
    summaries.push(summaryOf(id, received, await simpleParser(await readFile(path.join(dir, `${id}.eml`)))));
  }
  if (ids.length > 0) await writeIndex(dir, summaries);
  return summaries;
}

async function writeIndex(dir: string, summaries: CaughtMailSummary[]): Promise<void> {
  // Written aside then renamed: a stop mid-write leaves the old index, never half of one.
  const temporary = path.join(dir, `${indexFile}.${randomBytes(4).toString("hex")}.tmp`);
  await writeFile(temporary, JSON.stringify(summaries));
  await rename(temporary, path.join(dir, indexFile));
}
