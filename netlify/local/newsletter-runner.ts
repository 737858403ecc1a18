import { deliverQueuedMail, type OutboxDeliveryDeps } from "../../src/core/mail/outbox-delivery.ts";
import type { NewsletterDeps } from "../../src/core/newsletter/newsletter-sends.ts";
import { runDueSends } from "../../src/core/newsletter/newsletter-watchdog.ts";
import { startTicker } from "./ticker.ts";

/** How often `npm start` looks for newsletter work: a send starts within this, a crashed one resumes. */
export const newsletterTickMs = 1000;

/**
 * How long `npm start`'s worker holds a claimed batch (production: 2 minutes). The rows a killed
 * server had claimed wait this long after a restart; a live worker renews its lease every quarter
 * of it while it delivers, and one process runs one worker at a time, so a shorter lease costs a
 * renewal every 15 s and nothing else.
 */
export const localLeaseMs = 30_000;

/**
 * `npm start`'s mail worker and watchdog in one: every tick, delivers the outbox (transactional
 * email: what a signup, a confirmation, a download request or a test send queued, and retries that
 * are due), then starts the sends that wait and are due once their post's page answers 200 (after
 * the local rebuild), then runs the workers of every send with work due (just started, resumed after a crash
 * once its leases ran out, a retry due). Production runs the same code after each answer and in a
 * Background Function, with a Scheduled Function as the watchdog.
 */
export function startNewsletterRunner(
  deps: NewsletterDeps & OutboxDeliveryDeps,
  options: { concurrency: number; log: (line: string) => void },
): { stop(): void } {
  return startTicker(
    newsletterTickMs,
    async () => {
      const mail = await deliverQueuedMail(deps, { concurrency: options.concurrency, leaseMs: localLeaseMs });
      if (mail.sent + mail.failed > 0)
        options.log(`Outbox: ${String(mail.sent)} sent, ${String(mail.failed)} failed, ${String(mail.retried)} to retry`);
      for (const [sendId, run] of await runDueSends(deps, { concurrency: options.concurrency, leaseMs: localLeaseMs })) {
        options.log(
          `Newsletter send ${String(sendId)}: ${String(run.sent)} sent, ${String(run.failed)} failed, ${String(run.skipped)} skipped${run.finished ? ", done" : ""}${run.paused ? `, paused: ${run.paused}` : ""}`,
        );
      }
    },
    {
      // The database or the SMTP server may be back on the next tick; leases keep every row safe.
      onError: (error) => console.error("[mail] A delivery run failed; retrying on the next tick:", error),
    },
  );
}
