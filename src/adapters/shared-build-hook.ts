import type { SqlQueryable } from "../core/db/sql-executor.ts";
import type { BuildStatusDeps } from "../core/publishing/build-status.ts";
import type { RequestRebuild } from "../core/publishing/rebuild.ts";
import { buildHookCall, hookFailure, recordingRequests, trackedCall } from "./build-hook.ts";

export interface SharedRebuilderOptions {
  db: SqlQueryable;
  /** Netlify's build hook URL. */
  url: string;
  /** At most one hook call per window (Netlify runs only the first and last of queued builds anyway). */
  windowMs?: number;
  fetch?: typeof globalThis.fetch;
  log?: (message: string) => void;
  /**
   * The time requests and calls are recorded at. Default: the database's clock, the one every
   * instance shares; tests pass a fake clock's.
   */
  now?: () => Date;
  /** Waits for the window to end. Default: a timer; tests pass a fake clock's. */
  sleep?: (ms: number) => Promise<void>;
  /** Record requests and outcomes for the retry check and the dashboard (see build-hook.ts). */
  track?: BuildStatusDeps;
}

/**
 * The production rebuilder: stateless function instances share the last call time through the
 * database. A change calls the hook at once when the window since the last call has passed;
 * otherwise it waits for the window to end and then one waiter — whichever claims the row first —
 * calls it once more, so the last change of a burst is always built. The function is kept alive
 * for that wait with the request's `waitUntil`.
 */
export function sharedRebuilder(options: SharedRebuilderOptions): RequestRebuild {
  const { db, url, windowMs = 10_000, fetch = globalThis.fetch, log = (message: string) => console.error(message) } = options;
  const { now, sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)) } = options;
  // $2: the injected time, or null for the database's own clock.
  const time = "coalesce($2::timestamptz, clock_timestamp())";
  const timeParam = () => now?.() ?? null;
  const windowSql = `${String(windowMs)} milliseconds`;

  const call = trackedCall(options.track, buildHookCall(url, { fetch }));
  const callHook = async () => {
    try {
      await call();
    } catch (error) {
      log(`[publish] ${hookFailure(error)}`);
    }
  };

  const run = async () => {
    // Record the request and, if the window has passed, claim the call in the same statement.
    const { rows } = await db.query<{ claimed: boolean; called_at: Date }>(
      `INSERT INTO build_hook_state (id, requested_at, called_at) VALUES (1, ${time}, ${time})
       ON CONFLICT (id) DO UPDATE SET
         requested_at = ${time},
         called_at = CASE WHEN build_hook_state.called_at <= ${time} - $1::interval
                          THEN ${time} ELSE build_hook_state.called_at END
       RETURNING called_at >= requested_at - interval '1 millisecond' AS claimed, called_at`,
      [windowSql, timeParam()],
    );
    const row = rows[0];
    if (!row) return;
    if (row.claimed) {
      await callHook();
      return;
    }
    const wait = Math.max(0, row.called_at.getTime() + windowMs - (now?.() ?? new Date()).getTime()) + 25;
    await sleep(wait);
    const trailing = await db.query(
      `UPDATE build_hook_state SET called_at = ${time}
        WHERE id = 1 AND requested_at > called_at AND called_at <= ${time} - $1::interval
        RETURNING 1`,
      [windowSql, timeParam()],
    );
    if (trailing.rows.length > 0) await callHook();
  };

  return recordingRequests(
    options.track,
    ({ waitUntil } = {}) => {
      const work = run().catch((error: unknown) => {
        log(`[publish] build hook failed: ${error instanceof Error ? error.message : String(error)}`);
      });
      waitUntil?.(work);
    },
    log,
  );
}
