import { randomBytes } from "node:crypto";
import type { SqlQueryable } from "../core/db/sql-executor.ts";
import type { KickSends } from "../core/newsletter/newsletter-background.ts";
import type { Signer } from "../core/shared/signer.ts";

/** The Background Function's address: Netlify's default for a function without a `path` (`/api/*` is the API's). */
export function backgroundRunUrl(siteUrl: string): string {
  return new URL("/.netlify/functions/newsletter-send-background", siteUrl).href;
}

/** The header a run request carries: `{issued ms}.{nonce}.{signature of both}`. */
export const runRequestHeader = "x-newsletter-run";

/**
 * How long a signed run request stays valid. The kicker calls the function at once; the minute
 * allows for clocks a little apart. A failed run is not retried by a replay of its start: the
 * every-minute watchdog takes up what it left.
 */
export const runRequestLifetimeMs = 60_000;

const message = (issued: string, nonce: string) => `newsletter-run.${issued}.${nonce}`;

export function signRunRequest(signer: Signer, now: Date): string {
  const issued = String(now.getTime());
  const nonce = randomBytes(16).toString("base64url");
  return `${issued}.${nonce}.${signer.sign("background-run", message(issued, nonce))}`;
}

/** A run request's parts, when its signature is ours and it was issued less than a minute ago (constant-time compare). */
export function verifyRunRequest(signer: Signer, value: string | null, now: Date): { nonce: string; issuedAt: Date } | null {
  const match = /^(\d{1,15})\.([\w-]{22})\.([\w-]{43})$/.exec(value ?? "");
  if (!match) return null;
  const [, issued = "", nonce = "", signature = ""] = match;
  const age = now.getTime() - Number(issued);
  if (age < -runRequestLifetimeMs || age > runRequestLifetimeMs) return null;
  return signer.verify("background-run", message(issued, nonce), signature) ? { nonce, issuedAt: new Date(Number(issued)) } : null;
}

/**
 * Spends a verified run request: true the first time its nonce is seen, false for a replay. Nonces
 * older than twice the lifetime are deleted on the way (their requests no longer verify anyway).
 */
export async function spendRunRequest(db: SqlQueryable, request: { nonce: string; issuedAt: Date }, now: Date): Promise<boolean> {
  const { rows } = await db.query(
    `WITH pruned AS (DELETE FROM background_run_starts WHERE issued_at < $3)
     INSERT INTO background_run_starts (nonce, issued_at) VALUES ($1, $2) ON CONFLICT (nonce) DO NOTHING RETURNING 1`,
    [request.nonce, request.issuedAt, new Date(now.getTime() - 2 * runRequestLifetimeMs)],
  );
  return rows.length > 0;
}

export interface BackgroundKickerOptions {
  /** The Background Function's address (on SITE_URL). */
  url: string;
  signer: Signer;
  now: () => Date;
  fetch?: typeof globalThis.fetch;
  log?: (message: string) => void;
  timeoutMs?: number;
}

/**
 * Starts the Background Function with a signed POST. Netlify answers 202 at once and runs it on its
 * own; a failed call is logged, never passed on: the send is queued, and the Scheduled Function
 * (the watchdog) takes it up within a minute anyway.
 */
export function backgroundRunKicker(options: BackgroundKickerOptions): KickSends {
  const { url, signer, now, fetch = globalThis.fetch, log = (message: string) => console.error(message), timeoutMs = 10_000 } = options;
  return ({ waitUntil } = {}) => {
    const call = (async () => {
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { [runRequestHeader]: signRunRequest(signer, now()) },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) log(`[newsletter] starting the background run: ${url} answered ${String(response.status)}`);
        await response.body?.cancel();
      } catch (error) {
        log(`[newsletter] starting the background run failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
    waitUntil?.(call);
  };
}
