import type { Config } from "@netlify/functions";
import { spendRunRequest } from "../../src/adapters/background-run.ts";
import { movingRunHeader, verifyMovingRun } from "../../src/adapters/moving-background.ts";
import { bootApp } from "../../src/app/boot-app.ts";
import { runJob } from "../../src/app/run-job.ts";
import { signerFor } from "../../src/app/signer.ts";
import { readServerEnv } from "../../src/config/server-env.ts";

/**
 * Imports, backups and restores, run where they have 15 minutes: started by `POST /api/imports`,
 * `POST /api/backups`, `POST /api/backups/restore` and the weekly backup with a request signed with
 * SESSION_SECRET for one job, valid for a minute and spent once. Anyone else's call does nothing.
 */
export default async (request: Request): Promise<void> => {
  const env = readServerEnv(process.env);
  const signed = env.SESSION_SECRET ? verifyMovingRun(signerFor(env), request.headers.get(movingRunHeader), new Date()) : null;
  if (request.method !== "POST" || !signed) {
    console.warn("[moving] background run refused: not a signed run request");
    return;
  }
  const app = await bootApp();
  try {
    if (!(await spendRunRequest(app.deps.db, signed, app.deps.now()))) {
      console.warn("[moving] background run refused: this start was already used");
      return;
    }
    await runJob(app.deps, signed.job);
    console.log(`[moving] ${signed.job.kind} ${String(signed.job.id)} finished`);
  } finally {
    await app.close();
  }
};

export const config: Config = {
  background: true,
};
