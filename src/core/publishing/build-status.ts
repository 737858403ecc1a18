import type { SqlQueryable } from "../db/sql-executor.ts";
import type { Clock } from "../shared/clock.ts";
import type { BuildStatus } from "./build-status.schema.ts";
import type { RequestRebuild } from "./rebuild.ts";

/** What build tracking needs: the database and the clock. */
export interface BuildStatusDeps {
  db: SqlQueryable;
  now: Clock["now"];
}

interface StatusRow {
  requested_at: Date | null;
  built_through: Date | null;
  last_attempt_at: Date | null;
  failed_attempts: number;
  last_error: string | null;
}

/** Waits after a failed hook call: 1, 2, 4, 8… minutes, at most 30 (the every-minute check retries). */
export function buildRetryDelayMs(failedAttempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, failedAttempts - 1), 30 * 60_000);
}

/** A change asked for a build (recorded before the hook is called, so a lost call is retried). */
export async function recordBuildRequested(deps: BuildStatusDeps): Promise<void> {
  await deps.db.query("UPDATE site_build_status SET requested_at = greatest(requested_at, $1) WHERE id = 1", [deps.now()]);
}

/** A hook call that started at `startedAt` answered 2xx: every change up to then is built. */
export async function recordBuildSucceeded(deps: Pick<BuildStatusDeps, "db">, startedAt: Date): Promise<void> {
  await deps.db.query(
    `UPDATE site_build_status SET built_through = greatest(built_through, $1), failed_attempts = 0, last_error = NULL, last_attempt_at = $1
      WHERE id = 1`,
    [startedAt],
  );
}

/** A hook call failed (an error answer, a timeout, no connection). */
export async function recordBuildFailed(deps: BuildStatusDeps, reason: string): Promise<void> {
  await deps.db.query("UPDATE site_build_status SET failed_attempts = failed_attempts + 1, last_error = $2, last_attempt_at = $1 WHERE id = 1", [
    deps.now(),
    reason.slice(0, 500),
  ]);
}

async function statusRow(db: SqlQueryable): Promise<StatusRow | undefined> {
  const { rows } = await db.query<StatusRow>(
    "SELECT requested_at, built_through, last_attempt_at, failed_attempts, last_error FROM site_build_status WHERE id = 1",
  );
  return rows[0];
}

const unbuilt = (row: StatusRow) => row.requested_at !== null && (row.built_through === null || row.built_through < row.requested_at);

export async function buildStatus(deps: Pick<BuildStatusDeps, "db">): Promise<BuildStatus> {
  const row = await statusRow(deps.db);
  const builtAt = row?.built_through ? row.built_through.toISOString() : null;
  if (!row || !unbuilt(row)) return { state: "live", lastError: null, builtAt, nextRetryAt: null };
  if (row.failed_attempts === 0) return { state: "building", lastError: null, builtAt, nextRetryAt: null };
  const nextRetry = new Date((row.last_attempt_at ?? new Date(0)).getTime() + buildRetryDelayMs(row.failed_attempts));
  return { state: "retrying", lastError: row.last_error, builtAt, nextRetryAt: nextRetry.toISOString() };
}

/** How long a build request may go unanswered before the check calls the hook again (a call lost with its instance). */
export const unansweredBuildMs = 2 * 60_000;

/**
 * The every-minute check: when a change is still not built and its retry is due (its backoff has
 * passed after a failure, or the call was never answered), asks for the build again. Returns
 * whether it did.
 */
export async function retryUnbuiltChanges(
  deps: BuildStatusDeps & { rebuild: RequestRebuild },
  options?: Parameters<RequestRebuild>[0],
): Promise<boolean> {
  const row = await statusRow(deps.db);
  if (!row || !unbuilt(row)) return false;
  const now = deps.now().getTime();
  const due =
    row.failed_attempts > 0
      ? (row.last_attempt_at?.getTime() ?? 0) + buildRetryDelayMs(row.failed_attempts) <= now
      : (row.requested_at?.getTime() ?? now) + unansweredBuildMs <= now && (row.last_attempt_at?.getTime() ?? 0) + unansweredBuildMs <= now;
  if (due) deps.rebuild(options);
  return due;
}
