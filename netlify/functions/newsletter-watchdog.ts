import type { Config } from "@netlify/functions";
import { bootApp } from "../../src/app/boot-app.ts";
import { runDueSends } from "../../src/core/newsletter/newsletter-watchdog.ts";

/** A Scheduled Function runs for at most 30 s: stop claiming well before, so the last batch ends in time. */
export const claimBudgetMs = 20_000;

/**
 * The newsletter watchdog, every minute: works on every send with work due — just started, resumed
 * after a crashed run once its leases ran out, a retry due. Replays and overlapping runs are safe
 * (rows are leased; settled rows are never sent again). A send starts the Background Function
 * (newsletter-send-background) at once; this takes up whatever a lost or refused start, a crashed
 * run or a retry's backoff leaves behind.
 */
export default async (): Promise<void> => {
  const app = await bootApp();
  try {
    const deadline = new Date(app.deps.now().getTime() + claimBudgetMs);
    for (const [sendId, run] of await runDueSends(app.deps, { concurrency: app.deps.env.SMTP_MAX_CONNECTIONS, stopClaimingAt: deadline })) {
      console.log(
        `[newsletter] send ${String(sendId)}: ${String(run.sent)} sent, ${String(run.failed)} failed, ${String(run.skipped)} skipped${run.finished ? ", done" : ""}`,
      );
    }
  } finally {
    await app.close();
  }
};

export const config: Config = {
  schedule: "* * * * *",
};
