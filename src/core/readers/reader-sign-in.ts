import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { RateLimitedError, ValidationError } from "../errors.ts";
import { renderReaderSignInEmail } from "../mail/emails.ts";
import { enqueueMail, startDelivery, type OutboxMessage, type RenderedMail } from "../mail/outbox.ts";
import { personMailRenderer, type MailDeps } from "../mail/person-mail.ts";
import { takeRateLimit, type RateLimit } from "../rate-limit.ts";
import type { Signer } from "../shared/signer.ts";
import { subscribe } from "../subscribers/subscribers.service.ts";
import { createReaderSession, type ReaderSession } from "./reader-sessions.ts";

/** The figures of decision 0073. */
export const signInLifetimeMs = 15 * 60 * 1000;
/** At most one sign-in email per address in this time (the confirmation email's rule, shorter: a reader waits for it). */
export const signInEmailIntervalMs = 60 * 1000;
/** Sign-in asks per client (the newsletter form's figure): one limit for a subscriber's ask and a stranger's. */
export const signInAskLimit: RateLimit = { bucket: "reader-sign-in", max: 10, windowMs: 10 * 60 * 1000 };
/** Codes tried for one address, whoever tries: 10 in 15 minutes (one million codes: a guess in 100,000 a window). */
export const codeAddressLimit: RateLimit = { bucket: "reader-code-address", max: 10, windowMs: 15 * 60 * 1000 };
/** Codes or links tried from one client, whatever address. */
export const verifyClientLimit: RateLimit = { bucket: "reader-verify-client", max: 30, windowMs: 15 * 60 * 1000 };
/** Wrong codes after which one email's code is spent (its link still works). */
export const maxFailedCodes = 5;

export type ReaderSignInDeps = MailDeps & { env?: { RATE_LIMIT_MULTIPLIER?: number | undefined } };

export const wrongCodeMessage = "That code is not right, or it has expired. Check the latest email, or ask for a new one.";
export const spentLinkMessage = "This sign-in link has expired or was already used. Ask for a new one.";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The link's token of one sign-in: made from its nonce with the server's secret, never stored. */
function signInToken(signer: Signer, nonce: string): string {
  return signer.sign("reader-sign-in", `token.${nonce}`);
}

/** The six digits of one sign-in, from its nonce with the server's secret (never stored). */
function signInCode(signer: Signer, nonce: string): string {
  const digest = Buffer.from(signer.sign("reader-sign-in", `code.${nonce}`), "base64url");
  return String(digest.readUInt32BE(0) % 1_000_000).padStart(6, "0");
}

const codeHash = (nonce: string, code: string) => sha256(`${nonce}.${code}`);

/**
 * A reader asks to sign in. A confirmed (active) subscriber gets one email with a link and a code,
 * at most one a minute; anyone else is signed up as the newsletter form does (pending, the form's
 * consent wording kept, a confirmation email at most every 10 minutes). Each path takes one hit on
 * `signInAskLimit` and queues through the outbox, so the answer is the same either way.
 */
export async function requestReaderSignIn(deps: ReaderSignInDeps, input: { email: string; clientIp: string }): Promise<void> {
  const { rows } = await deps.db.query<{ id: number; email: string; status: string }>(
    "SELECT id, email, status FROM subscribers WHERE lower(email) = lower($1)",
    [input.email],
  );
  const subscriber = rows[0];
  if (subscriber?.status !== "active") {
    await subscribe(deps, input, signInAskLimit);
    return;
  }
  await takeRateLimit(deps, signInAskLimit, input.clientIp);
  const now = deps.now();
  const queued = await deps.db.transaction(async (tx) => {
    const messageId = await enqueueMail(
      tx,
      deps,
      { kind: "reader-sign-in", subscriberId: subscriber.id, to: subscriber.email },
      {
        with: `claim AS (
          UPDATE subscribers SET sign_in_sent_at = $2
           WHERE id = $1 AND (sign_in_sent_at IS NULL OR sign_in_sent_at <= $3)
          RETURNING id)`,
        where: "EXISTS (SELECT 1 FROM claim)",
        params: [subscriber.id, now, new Date(now.getTime() - signInEmailIntervalMs)],
      },
    );
    if (messageId === undefined) return false;
    const nonce = randomBytes(18).toString("base64url");
    await tx.query(
      `INSERT INTO reader_sign_ins (subscriber_id, message_id, nonce, token_hash, code_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        subscriber.id,
        messageId,
        nonce,
        sha256(signInToken(deps.signer, nonce)),
        codeHash(nonce, signInCode(deps.signer, nonce)),
        now,
        new Date(now.getTime() + signInLifetimeMs),
      ],
    );
    return true;
  });
  if (queued) startDelivery(deps);
}

/** The page a sign-in link opens: it reads the token from the fragment (never sent to a server, nor to a scanner). */
export const continuePagePath = "/account/continue";

/** Renders a queued sign-in email at delivery: its link and code made again from the row's nonce. */
export function readerSignInEmailRenderer(deps: Omit<MailDeps, "mail">): (message: OutboxMessage) => Promise<RenderedMail> {
  return personMailRenderer(deps, async (message, { identity }) => {
    const { rows } = await deps.db.query<{ nonce: string }>("SELECT nonce FROM reader_sign_ins WHERE message_id = $1", [message.messageId]);
    const nonce = rows[0]?.nonce;
    if (!nonce) throw new Error(`no sign-in row for outbox message ${message.messageId}`);
    const signInUrl = deps.site.absolute(`${continuePagePath}#${new URLSearchParams({ token: signInToken(deps.signer, nonce) }).toString()}`);
    return renderReaderSignInEmail({ ...identity, signInUrl, code: signInCode(deps.signer, nonce) });
  });
}

type VerifyDeps = Pick<ReaderSignInDeps, "db" | "now" | "env">;

/** Takes a hit, answering 429 when over; taken outside any transaction so a refused guess still counts. */
async function limit(deps: VerifyDeps, rateLimit: RateLimit, key: string): Promise<void> {
  try {
    await takeRateLimit(deps, rateLimit, key);
  } catch (error) {
    if (error instanceof RateLimitedError) throw new RateLimitedError("Too many tries. Wait a few minutes, then try again.", error.retryAfterSeconds);
    throw error;
  }
}

/** The link's POST (the "Continue" button): spends the sign-in (link and code) and starts a session. */
export async function verifySignInToken(
  deps: VerifyDeps,
  input: { token: string; clientIp: string },
): Promise<{ token: string; session: ReaderSession }> {
  await limit(deps, verifyClientLimit, input.clientIp);
  const now = deps.now();
  const { rows } = await deps.db.query<{ subscriber_id: number }>(
    `UPDATE reader_sign_ins SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING subscriber_id`,
    [sha256(input.token), now],
  );
  const row = rows[0];
  if (!row) throw new ValidationError(spentLinkMessage);
  return createReaderSession(deps, row.subscriber_id);
}

/**
 * The code typed on the page: counted per address and per client first (a refused try counts), then
 * checked against every live sign-in of the address. A right code spends its sign-in; a wrong one
 * counts against each live code of the address, spent after `maxFailedCodes`.
 */
export async function verifySignInCode(
  deps: VerifyDeps,
  input: { email: string; code: string; clientIp: string },
): Promise<{ token: string; session: ReaderSession }> {
  await limit(deps, verifyClientLimit, input.clientIp);
  await limit(deps, codeAddressLimit, `reader:${input.email.toLowerCase()}`);
  const now = deps.now();
  const { rows } = await deps.db.query<{ id: number; nonce: string; code_hash: string }>(
    `SELECT r.id, r.nonce, r.code_hash FROM reader_sign_ins r JOIN subscribers s ON s.id = r.subscriber_id
      WHERE lower(s.email) = lower($1) AND r.used_at IS NULL AND r.expires_at > $2 AND r.failed_codes < $3
      ORDER BY r.id DESC LIMIT 10`,
    [input.email, now, maxFailedCodes],
  );
  const match = rows.find((row) => safeEqual(row.code_hash, codeHash(row.nonce, input.code)));
  if (match) {
    const spent = await deps.db.query<{ subscriber_id: number }>(
      "UPDATE reader_sign_ins SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING subscriber_id",
      [match.id, now],
    );
    const row = spent.rows[0];
    if (row) return createReaderSession(deps, row.subscriber_id);
  } else if (rows.length > 0) {
    await deps.db.query(`UPDATE reader_sign_ins SET failed_codes = failed_codes + 1 WHERE id = ANY($1::int[])`, [rows.map((row) => row.id)]);
  }
  throw new ValidationError(wrongCodeMessage);
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
