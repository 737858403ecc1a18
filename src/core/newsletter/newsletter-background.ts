import { createHmac, timingSafeEqual } from "node:crypto";
import { dueSends } from "./newsletter-queue.ts";
import type { NewsletterDeps } from "./newsletter-sends.ts";
import { runDueSends } from "./newsletter-watchdog.ts";
import type { WorkerOptions, WorkerRun } from "./newsletter-worker.ts";

/**
 * Starts a run of the newsletter workers elsewhere (production: the Background Function), without
 * waiting for it. Never throws. `waitUntil` keeps a function alive until the request is handed over.
 */
export type KickSends = (options?: { waitUntil?: ((promise: Promise<unknown>) => void) | undefined }) => void;

/** Where no background run exists (tests, `npm start`, whose in-process timer runs the sends). */
export const noKick: KickSends = () => undefined;

/** The Background Function's address: Netlify's default for a function without a `path` (`/api/*` is the API's). */
export function backgroundRunUrl(siteUrl: string): string {
  return new URL("/.netlify/functions/newsletter-send-background", siteUrl).href;
}

/** The header a run request carries: `{issued ms}.{HMAC-SHA256 of it with SESSION_SECRET}`. */
export const runRequestHeader = "x-newsletter-run";

/** How long a signed run request stays valid: long enough for Netlify's two retries of a failed run. */
export const runRequestLifetimeMs = 30 * 60_000;

function runSignature(secret: string, issued: number): string {
  return createHmac("sha256", secret)
    .update(`newsletter-run.${String(issued)}`)
    .digest("base64url");
}

export function signRunRequest(secret: string, now: Date): string {
  const issued = now.getTime();
  return `${String(issued)}.${runSignature(secret, issued)}`;
}

/** True for a header `signRunRequest` made with this secret, issued less than 30 minutes ago (constant-time compare). */
export function verifyRunRequest(secret: string, value: string | null, now: Date): boolean {
  const match = /^(\d{1,15})\.([\w-]{43})$/.exec(value ?? "");
  if (!match) return false;
  const issued = Number(match[1]);
  const age = now.getTime() - issued;
  if (age < -60_000 || age > runRequestLifetimeMs) return false;
  const expected = Buffer.from(runSignature(secret, issued));
  const given = Buffer.from(match[2] as string);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface BackgroundKickerOptions {
  /** The Background Function's address (on SITE_URL). */
  url: string;
  secret: string;
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
  const { url, secret, now, fetch = globalThis.fetch, log = (message: string) => console.error(message), timeoutMs = 10_000 } = options;
  return ({ waitUntil } = {}) => {
    const call = (async () => {
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { [runRequestHeader]: signRunRequest(secret, now()) },
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

export interface BackgroundRun {
  runs: Map<number, WorkerRun>;
  /** Whether this run started the next one: it used its whole budget and a send still has work due. */
  continued: boolean;
}

/**
 * One Background Function run: works on every send with work due until `budgetMs` has passed
 * (then stops claiming; the batches in hand are finished), and if it ran out of time with work
 * still due, starts the next run. A run that ends early does not: what is left then is leased
 * by another worker or waiting for a retry, which the watchdog takes up when it is due. Running it
 * twice, or twice at once (a replay of a failed run), sends nothing twice: rows are leased and
 * settled rows are never sent again.
 */
export async function runBackgroundSends(
  deps: NewsletterDeps,
  options: { budgetMs: number; kick: KickSends } & Omit<WorkerOptions, "stopClaimingAt">,
): Promise<BackgroundRun> {
  const { budgetMs, kick, ...workerOptions } = options;
  const stopClaimingAt = new Date(deps.now().getTime() + budgetMs);
  const runs = await runDueSends(deps, { ...workerOptions, stopClaimingAt });
  const outOfTime = deps.now() >= stopClaimingAt;
  const continued = outOfTime && (await dueSends(deps)).length > 0;
  if (continued) {
    // The function must not end before the next run was handed over.
    const handing: Promise<unknown>[] = [];
    kick({ waitUntil: (promise) => handing.push(promise) });
    await Promise.all(handing);
  }
  return { runs, continued };
}
