import { dueSends } from "./newsletter-queue.ts";
import { startDueSends } from "./newsletter-start.ts";
import type { NewsletterDeps } from "./newsletter-sends.ts";
import { runSendWorker, type WorkerOptions, type WorkerRun } from "./newsletter-worker.ts";

/**
 * One watchdog round: first goes on fixing the recipients of the sends still preparing and starts
 * the sends that wait and are due once their post's page is live (and makes the sends "Email to
 * subscribers when published" asks for), within the round's `stopClaimingAt`, then runs a worker on every send that has work a worker could take now — a send
 * just started, one whose worker died (after its leases ran out), a retry that is due. Safe to run
 * while other workers are busy, and again and again: claimed rows are never handed out twice while
 * their lease lives, and settled rows are never sent again.
 */
export async function runDueSends(deps: NewsletterDeps, options: WorkerOptions = {}): Promise<Map<number, WorkerRun>> {
  await startDueSends(deps, { until: options.stopClaimingAt });
  const runs = new Map<number, WorkerRun>();
  for (const sendId of await dueSends(deps)) runs.set(sendId, await runSendWorker(deps, sendId, options));
  return runs;
}
