import type { Config } from "@netlify/functions";
import { runRequestHeader, spendRunRequest, verifyRunRequest } from "../../src/adapters/background-run.ts";
import { bootApp } from "../../src/app/boot-app.ts";
import { signerFor } from "../../src/app/signer.ts";
import { readServerEnv } from "../../src/config/server-env.ts";
import { runBackgroundSends } from "../../src/core/newsletter/newsletter-background.ts";

/** A Background Function runs for at most 15 minutes: stop claiming after 12, so the last batches end in time. */
export const claimBudgetMs = 12 * 60_000;

/**
 * The newsletter's Background Function, started by a send (`POST /api/newsletter/sends`, through
 * `kickSends`) with a request signed with SESSION_SECRET, valid for a minute and spent once:
 * anyone else's call, or a replay of a captured one, does nothing. It works on every send with
 * work due for 12 minutes and, if work is still due then, starts the next run itself. A replay
 * would send nothing twice anyway (rows are leased, settled rows are never sent again); the
 * Scheduled Function (newsletter-watchdog) takes up what a lost or failed run leaves behind.
 */
export default async (request: Request): Promise<void> => {
  const env = readServerEnv(process.env);
  const signed = env.SESSION_SECRET ? verifyRunRequest(signerFor(env), request.headers.get(runRequestHeader), new Date()) : null;
  if (request.method !== "POST" || !signed) {
    console.warn("[newsletter] background run refused: not a signed run request");
    return;
  }
  const app = await bootApp();
  try {
    if (!(await spendRunRequest(app.deps.db, signed, app.deps.now()))) {
      console.warn("[newsletter] background run refused: this start was already used");
      return;
    }
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
