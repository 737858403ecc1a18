import type { Config } from "@netlify/functions";
import { createApp } from "../../src/app/create-app.ts";
import { productionParts } from "../../src/app/production-parts.ts";
import { readServerEnv } from "../../src/config/server-env.ts";
import { runBackgroundSends, runRequestHeader, verifyRunRequest } from "../../src/core/newsletter/newsletter-background.ts";

/** A Background Function runs for at most 15 minutes: stop claiming after 12, so the last batches end in time. */
export const claimBudgetMs = 12 * 60_000;

/**
 * The newsletter's Background Function, started by a send (`POST /api/newsletter/sends`, through
 * `kickSends`) with a request signed with SESSION_SECRET: anyone else's call does nothing. It works
 * on every send with work due for 12 minutes and, if work is still due then, starts the next run
 * itself. Netlify retries a failed run twice; a replay sends nothing twice (rows are leased,
 * settled rows are never sent again). The Scheduled Function (newsletter-watchdog) takes up what a
 * lost run leaves behind.
 */
export default async (request: Request): Promise<void> => {
  const env = readServerEnv(process.env);
  if (request.method !== "POST" || !env.SESSION_SECRET || !verifyRunRequest(env.SESSION_SECRET, request.headers.get(runRequestHeader), new Date())) {
    console.warn("[newsletter] background run refused: not a signed run request");
    return;
  }
  const app = createApp(await productionParts(env));
  try {
    const { runs, continued } = await runBackgroundSends(app.deps, {
      budgetMs: claimBudgetMs,
      concurrency: env.SMTP_MAX_CONNECTIONS,
      kick: app.deps.kickSends,
    });
    for (const [sendId, run] of runs) {
      console.log(
        `[newsletter] send ${String(sendId)}: ${String(run.sent)} sent, ${String(run.failed)} failed, ${String(run.skipped)} skipped${run.finished ? ", done" : ""}`,
      );
    }
    if (continued) console.log("[newsletter] work left after this run's budget: started the next run");
  } finally {
    await app.close();
  }
};

export const config: Config = {
  background: true,
};
