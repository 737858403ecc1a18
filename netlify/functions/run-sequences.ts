import type { Config } from "@netlify/functions";
import { bootApp } from "../../src/app/boot-app.ts";
import { deliverQueuedMail } from "../../src/core/mail/outbox-delivery.ts";
import { runDueSequenceSteps } from "../../src/core/sequences/sequences.service.ts";

/** A Scheduled Function runs for at most 30 s: queue for 10, deliver for 10 more. */
const queueBudgetMs = 10_000;
const deliverBudgetMs = 20_000;

/**
 * The sequences, every minute: queues each enrolled person's next step once its delay has passed
 * (a step due while nothing ran goes out now, once), then delivers the outbox, which the mail
 * watchdog also does. Replays and overlapping runs are safe: a step is queued once per person
 * (docs/decisions/0039-sequences.md).
 */
export default async (): Promise<void> => {
  const app = await bootApp();
  try {
    const started = app.deps.now().getTime();
    const run = await runDueSequenceSteps(app.deps, { stopAt: new Date(started + queueBudgetMs) });
    if (run.queued > 0) {
      console.log(`[sequences] ${String(run.queued)} steps queued`);
      await deliverQueuedMail(app.deps, { concurrency: app.deps.env.SMTP_MAX_CONNECTIONS, stopClaimingAt: new Date(started + deliverBudgetMs) });
    }
  } finally {
    await app.close();
  }
};

export const config: Config = {
  schedule: "* * * * *",
};
