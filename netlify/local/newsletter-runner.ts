import type { AppDeps } from "../../src/core/app-deps.ts";
import { runDueSends } from "../../src/core/newsletter/newsletter-watchdog.ts";

/** How often `npm start` looks for newsletter work: a send starts within this, a crashed one resumes. */
export const newsletterTickMs = 1000;

/**
 * `npm start`'s newsletter worker and watchdog in one: every tick, runs the workers of every send
 * with work due (just started, resumed after a crash once its leases ran out, a retry due). A tick
 * never overlaps the previous one. Production runs the same code in a Background Function, with a
 * Scheduled Function as the watchdog.
 */
export function startNewsletterRunner(
  deps: Pick<AppDeps, "db" | "env" | "mail" | "now" | "urls">,
  options: { concurrency: number; log: (line: string) => void },
): { stop(): void } {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (const [sendId, run] of await runDueSends(deps, { concurrency: options.concurrency })) {
        options.log(
          `Newsletter send ${String(sendId)}: ${String(run.sent)} sent, ${String(run.failed)} failed, ${String(run.skipped)} skipped${run.finished ? ", done" : ""}`,
        );
      }
    } catch (error) {
      // The database or the SMTP server may be back on the next tick; leases keep every row safe.
      console.error("[newsletter] A send run failed; retrying on the next tick:", error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), newsletterTickMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
