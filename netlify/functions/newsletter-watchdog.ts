import type { Config } from "@netlify/functions";
import { bootApp } from "../../src/app/boot-app.ts";
import { deliverQueuedMail } from "../../src/core/mail/outbox-delivery.ts";
import { runDueSends } from "../../src/core/newsletter/newsletter-watchdog.ts";

/** A Scheduled Function runs for at most 30 s: stop claiming well before, so the last batch ends in time. */
export const claimBudgetMs = 20_000;

/**
 * The mail watchdog, every minute. First the outbox: transactional email a request's own run after
 * its answer left (an instance frozen mid-run, a retry due, the SMTP server back after an outage).
 * Then the newsletter: starts the sends that wait and are due (a send by hand, "Email to subscribers
 * when published", a "Send at") once their post's URL answers 200 — so a send starts within a
 * minute of the deploy that contains the post going live (docs/decisions/0038-sends-wait-for-the-site.md) —
 * and works on every send with work due — just started, resumed
 * after a crashed run once its leases ran out, a retry due. Replays and overlapping runs are safe
 * (rows are leased; settled rows are never sent again). A send starts the Background Function
 * (newsletter-send-background) at once; this takes up whatever a lost or refused start, a crashed
 * run or a retry's backoff leaves behind.
 */
export default async (): Promise<void> => {
  const app = await bootApp();
  try {
    const deadline = new Date(app.deps.now().getTime() + claimBudgetMs);
    const mail = await deliverQueuedMail(app.deps, { concurrency: app.deps.env.SMTP_MAX_CONNECTIONS, stopClaimingAt: deadline });
    if (mail.sent + mail.failed + mail.retried > 0) {
      console.log(`[mail] outbox: ${String(mail.sent)} sent, ${String(mail.failed)} failed, ${String(mail.retried)} to retry`);
    }
    for (const [sendId, run] of await runDueSends(app.deps, { concurrency: app.deps.env.SMTP_MAX_CONNECTIONS, stopClaimingAt: deadline })) {
      console.log(
        `[newsletter] send ${String(sendId)}: ${String(run.sent)} sent, ${String(run.failed)} failed, ${String(run.skipped)} skipped${run.finished ? ", done" : ""}${run.paused ? `, paused: ${run.paused}` : ""}`,
      );
    }
  } finally {
    await app.close();
  }
};

export const config: Config = {
  schedule: "* * * * *",
};
