import { randomBytes } from "node:crypto";
import type { SqlQueryable } from "../core/db/sql-executor.ts";
import type { KickSends } from "../core/newsletter/newsletter-background.ts";
import type { Signer } from "../core/shared/signer.ts";

/**
 * The one signed start of a Background Function, shared by every one of them (the newsletter's
 * `newsletter-send-background`, the imports' and backups' `moving-background`): a POST carrying
 * `{issued ms}.{nonce}.{function}.{job}.{signature of all four}`, signed with SESSION_SECRET, valid
 * for a minute and spent once (`spendRunRequest`). The function's name is signed, so a start of one
 * function starts no other; `job` is what that function is to do (`run`, `import-12`).
 */
export const runRequestHeader = "x-background-run";

/** A Background Function's address: Netlify's default for a function without a `path` (`/api/*` is the API's). */
export function backgroundFunctionUrl(siteUrl: string, name: string): string {
  return new URL(`/.netlify/functions/${name}`, siteUrl).href;
}

/**
 * How long a signed run request stays valid. The kicker calls the function at once; the minute
 * allows for clocks a little apart. A failed run is not retried by a replay of its start: the
 * every-minute watchdog takes up what it left.
 */
export const runRequestLifetimeMs = 60_000;

export interface RunRequest {
  nonce: string;
  issuedAt: Date;
  /** What the function is to do, as the starter signed it. */
  job: string;
}

const functionName = /^[a-z][a-z0-9-]{0,62}$/;
const jobName = /^[a-z0-9][a-z0-9-]{0,40}$/;
const message = (issued: string, nonce: string, name: string, job: string) => `background-run.${issued}.${nonce}.${name}.${job}`;

export function signRunRequest(signer: Signer, now: Date, start: { name: string; job: string }): string {
  if (!functionName.test(start.name) || !jobName.test(start.job)) throw new Error(`Not a background start: ${start.name} ${start.job}`);
  const issued = String(now.getTime());
  const nonce = randomBytes(16).toString("base64url");
  return `${issued}.${nonce}.${start.name}.${start.job}.${signer.sign("background-run", message(issued, nonce, start.name, start.job))}`;
}

/**
 * A run request's parts, when it starts the function `name`, its signature is ours and it was issued
 * less than a minute before `now` (the app's clock) — constant-time compare.
 */
export function verifyRunRequest(signer: Signer, value: string | null, now: Date, name: string): RunRequest | null {
  const match = /^(\d{1,15})\.([\w-]{22})\.([a-z][a-z0-9-]{0,62})\.([a-z0-9][a-z0-9-]{0,40})\.([\w-]{43})$/.exec(value ?? "");
  if (!match) return null;
  const [, issued = "", nonce = "", signedName = "", job = "", signature = ""] = match;
  if (signedName !== name) return null;
  const age = now.getTime() - Number(issued);
  if (age < -runRequestLifetimeMs || age > runRequestLifetimeMs) return null;
  return signer.verify("background-run", message(issued, nonce, signedName, job), signature)
    ? { nonce, issuedAt: new Date(Number(issued)), job }
    : null;
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

export interface BackgroundStarterOptions {
  /** The site's address (SITE_URL): the function answers on it. */
  siteUrl: string;
  /** The Background Function's name (its file in netlify/functions/). */
  name: string;
  signer: Signer;
  now: () => Date;
  fetch?: typeof globalThis.fetch;
  log?: (message: string) => void;
  timeoutMs?: number;
}

/**
 * Starts a Background Function with a signed POST. Netlify answers 202 at once and runs it on its
 * own; a failed call is logged under `tag`, never passed on (the work is recorded, and whatever
 * started it says how it is taken up again).
 */
export function backgroundStarter(
  options: BackgroundStarterOptions,
): (job: string, tag: string, waitUntil?: (promise: Promise<unknown>) => void) => void {
  const { siteUrl, name, signer, now, fetch = globalThis.fetch, log = (line: string) => console.error(line), timeoutMs = 10_000 } = options;
  const url = backgroundFunctionUrl(siteUrl, name);
  return (job, tag, waitUntil) => {
    const call = (async () => {
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { [runRequestHeader]: signRunRequest(signer, now(), { name, job }) },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) log(`[${tag}] starting the background run: ${url} answered ${String(response.status)}`);
        await response.body?.cancel();
      } catch (error) {
        log(`[${tag}] starting the background run failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
    waitUntil?.(call);
  };
}

/** The newsletter's Background Function. */
export const newsletterBackground = "newsletter-send-background";

/**
 * Starts the newsletter's Background Function. A failed call is logged, never passed on: the send is
 * queued, and the Scheduled Function (the watchdog) takes it up within a minute anyway.
 */
export function backgroundRunKicker(options: Omit<BackgroundStarterOptions, "name">): KickSends {
  const start = backgroundStarter({ ...options, name: newsletterBackground });
  return ({ waitUntil } = {}) => start("run", "newsletter", waitUntil);
}
