import type { SqlExecutor } from "../db/sql-executor.ts";
import type { FileStore } from "../files/file-store.ts";
import { deleteParts } from "../files/file-parts.ts";
import { deleteKeptUpload } from "../imports/import-runs.ts";
import type { Clock } from "../shared/clock.ts";

/**
 * Imports, backups and restores run after their answer (a Background Function, or the process of
 * `npm start`). A process killed mid-run leaves its row `running` for ever; so a run stamps a
 * heartbeat while it works, and one silent for `stalledAfterMs` is marked failed as interrupted,
 * its upload (or its half-written archive) deleted. An import is idempotent: run again with the same
 * file, it adds what the interrupted one had not. Why these figures: docs/decisions/0050-runs-stamp-a-heartbeat.md.
 */
export interface RunHeartbeatDeps {
  db: SqlExecutor;
  files: FileStore;
  clock: Clock;
}

export type MovingJob = { kind: "import" | "backup" | "restore"; id: number };

/** How often a running job stamps its heartbeat. */
export const heartbeatEveryMs = 30 * 1000;
/** Silence after which a run is taken for dead: ten missed heartbeats, far past a database's pause. */
export const stalledAfterMs = 5 * 60 * 1000;

export const interruptedImportMessage =
  "The import was interrupted (its process stopped). What it imported stays: start it again with the same file to finish.";
export const interruptedRunMessage = "The run was interrupted (its process stopped); nothing was changed. Please start it again.";

/** Where a backup's archive is written, in parts (a backup made before 0040 is one blob, `….zip`). */
export const backupFolder = (id: number, at: Date): string => `backups/${at.toISOString().slice(0, 10)}-${String(id)}/`;

const tableOf = (job: MovingJob) => (job.kind === "import" ? "import_runs" : "backup_runs");

/** Runs `work` while stamping the job's heartbeat every `heartbeatEveryMs` (first at once), until it settles. */
export async function withHeartbeat<T>(deps: Pick<RunHeartbeatDeps, "db" | "clock">, job: MovingJob, work: () => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const stamp = () =>
    deps.db
      .query(`UPDATE ${tableOf(job)} SET heartbeat_at = $2 WHERE id = $1 AND status = 'running'`, [job.id, deps.clock.now()])
      .catch((error: unknown) => console.error(`[${job.kind}] run ${String(job.id)}: the heartbeat was not stamped:`, error));
  await stamp();
  const beating = (async () => {
    for (;;) {
      await deps.clock.sleep(heartbeatEveryMs, stop.signal);
      if (stop.signal.aborted) return;
      await stamp();
    }
  })();
  try {
    return await work();
  } finally {
    stop.abort();
    await beating;
  }
}

/**
 * Marks every run silent for `stalledAfterMs` (no heartbeat, or none since it was created) as failed
 * and interrupted, and deletes what it held in the file store. Safe to call often and from several
 * places at once: each row is claimed by its own UPDATE.
 */
export async function markStalledRuns(deps: RunHeartbeatDeps): Promise<{ imports: number; backups: number; restores: number }> {
  const now = deps.clock.now();
  const before = new Date(now.getTime() - stalledAfterMs);
  const { rows: imports } = await deps.db.query<{ file_key: string }>(
    `UPDATE import_runs SET status = 'failed', error = $2, finished_at = $3
     WHERE status = 'running' AND COALESCE(heartbeat_at, created_at) < $1 RETURNING file_key`,
    [before, interruptedImportMessage, now],
  );
  for (const row of imports) await deleteKeptUpload(deps.files, row.file_key);
  const { rows: runs } = await deps.db.query<{ id: number; kind: "backup" | "restore"; file_key: string | null; created_at: Date | string }>(
    `UPDATE backup_runs SET status = 'failed', error = $2, finished_at = $3
     WHERE status = 'running' AND COALESCE(heartbeat_at, created_at) < $1 RETURNING id, kind, file_key, created_at`,
    [before, interruptedRunMessage, now],
  );
  for (const run of runs) {
    if (run.kind === "restore" && run.file_key) await deleteKeptUpload(deps.files, run.file_key);
    if (run.kind === "backup") {
      // The parts written so far, under the folder the run was writing.
      await deleteParts(deps.files, backupFolder(run.id, new Date(run.created_at))).catch(() => undefined);
    }
  }
  return {
    imports: imports.length,
    backups: runs.filter((run) => run.kind === "backup").length,
    restores: runs.filter((run) => run.kind === "restore").length,
  };
}
