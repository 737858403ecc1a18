import type { AppDeps } from "./app-deps.ts";
import { runBackup, runRestore } from "../core/backups/backup-runs.ts";
import { runImport } from "../core/imports/import-runs.ts";
import type { StartJob } from "../core/imports/import-runs.ts";
import { markStalledRuns, withHeartbeat } from "../core/backups/stalled-runs.ts";

/**
 * Runs one import, backup or restore where it was started (in process) or in the Background Function,
 * stamping its heartbeat as it goes; first, runs whose process stopped are marked interrupted.
 */
export async function runJob(deps: AppDeps, job: Parameters<StartJob>[0]): Promise<void> {
  await markStalledRuns(deps);
  await withHeartbeat(deps, job, async () => {
    if (job.kind === "import") await runImport(deps, job.id);
    else if (job.kind === "backup") await runBackup(deps, job.id);
    else await runRestore(deps, job.id);
  });
}
