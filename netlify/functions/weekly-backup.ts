import type { Config } from "@netlify/functions";
import { bootApp } from "../../src/app/boot-app.ts";
import { backupIfDue } from "../../src/core/backups/backup-runs.ts";

/**
 * The weekly backup: starts one (in the Background Function) when the last is a week old; the
 * newest 8 are kept. A replayed or doubled tick starts nothing twice.
 */
export default async (): Promise<void> => {
  const app = await bootApp();
  try {
    const calls: Promise<unknown>[] = [];
    const started = await backupIfDue({ ...app.deps, startJob: (job) => app.deps.startJob(job, { waitUntil: (call) => calls.push(call) }) });
    await Promise.all(calls);
    if (started) console.log(`[backups] weekly backup ${String(started.id)} started`);
  } finally {
    await app.close();
  }
};

export const config: Config = {
  schedule: "@daily",
};
