import { preparingSends } from "./newsletter-prepare.ts";
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

export interface BackgroundRun {
  runs: Map<number, WorkerRun>;
  /** Whether this run started the next one: it used its whole budget and a send still has work due. */
  continued: boolean;
}

/**
 * One Background Function run: works on every send with work due until `budgetMs` has passed
 * (then stops claiming; the batches in hand are finished), and if it ran out of time with work
 * still due (a send still preparing its recipients included), starts the next run. A run that ends early does not: what is left then is leased
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
  const continued = outOfTime && ((await preparingSends(deps)).length > 0 || (await dueSends(deps)).length > 0);
  if (continued) {
    // The function must not end before the next run was handed over.
    const handing: Promise<unknown>[] = [];
    kick({ waitUntil: (promise) => handing.push(promise) });
    await Promise.all(handing);
  }
  return { runs, continued };
}
