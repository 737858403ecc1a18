import type { AppDeps } from "../../src/app/app-deps.ts";
import { backupIfDue } from "../../src/core/backups/backup-runs.ts";
import { startTicker } from "./ticker.ts";

/** How often `npm start` looks whether the weekly backup is due. */
export const weeklyBackupTickMs = 60 * 60 * 1000;

/** `npm start`'s stand-in for the weekly-backup Scheduled Function: the same check, hourly, in this process. */
export function startWeeklyBackups(deps: AppDeps, options: { log: (line: string) => void }): { stop(): void } {
  return startTicker(
    weeklyBackupTickMs,
    async () => {
      const started = await backupIfDue(deps);
      if (started) options.log(`Weekly backup ${String(started.id)} started.`);
    },
    { onError: (error) => console.error("[backups] The weekly backup check failed; retrying on the next tick:", error) },
  );
}
