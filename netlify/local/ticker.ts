import { backgroundJobs, runBackgroundJob, type BackgroundJob } from "../../src/app/background-jobs.ts";
import type { App } from "../../src/app/create-app.ts";

/**
 * How long `npm start`'s mail worker holds a claimed batch (production: 2 minutes). The rows a killed
 * server had claimed wait this long after a restart; a live worker renews its lease every quarter
 * of it while it delivers, and one process runs one worker at a time, so a shorter lease costs a
 * renewal every 15 s and nothing else.
 */
export const localLeaseMs = 30_000;

/**
 * `npm start`'s stand-in for Netlify's Scheduled Functions: every row of the background-jobs table
 * (src/app/background-jobs.ts) runs in this process on its own `localEveryMs`, never two runs of a
 * job at once (a slow run makes the next one wait, not overlap). A failed run is reported and the
 * next one tries again (leases and idempotent updates keep every row safe). The timers do not keep
 * the process alive.
 */
export function startJobTicker(app: Pick<App, "deps">, options: { log: (line: string) => void; jobs?: readonly BackgroundJob[] }): { stop(): void } {
  const jobs: readonly BackgroundJob[] = options.jobs ?? backgroundJobs;
  const timers = jobs.map((job) => {
    let running = false;
    const tick = async () => {
      if (running) return;
      running = true;
      try {
        await runBackgroundJob(app, job, { log: options.log, leaseMs: localLeaseMs });
      } catch (error) {
        console.error(`[${job.name}] A run failed; retrying on the next tick:`, error);
      } finally {
        running = false;
      }
    };
    if (job.runAtStart) void tick();
    const timer = setInterval(() => void tick(), job.localEveryMs);
    timer.unref();
    return timer;
  });
  return { stop: () => timers.forEach((timer) => clearInterval(timer)) };
}
