import { recordBuildFailed, recordBuildRequested, recordBuildSucceeded, type BuildStatusDeps } from "../core/publishing/build-status.ts";
import type { RequestRebuild } from "../core/publishing/rebuild.ts";

/** The build hook answered, but not 2xx. */
export class BuildHookAnswerError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`build hook answered ${String(status)}`);
    this.status = status;
    this.name = "BuildHookAnswerError";
  }
}

export interface BuildHookOptions {
  fetch?: typeof globalThis.fetch;
  log?: (message: string) => void;
  /** Give up on a hook call after this long. */
  timeoutMs?: number;
  /**
   * Record each request and each call's outcome in the database (site_build_status), so a failed
   * call is retried by the every-minute check and the dashboard says whether the site is live.
   */
  track?: BuildStatusDeps;
}

/** One POST to the hook; throws when it does not answer 2xx. */
export function buildHookCall(url: string, options: Pick<BuildHookOptions, "fetch" | "timeoutMs"> = {}): () => Promise<void> {
  const { fetch = globalThis.fetch, timeoutMs = 10_000 } = options;
  return async () => {
    const response = await fetch(url, { method: "POST", signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    if (!response.ok) throw new BuildHookAnswerError(response.status);
  };
}

/** The log line for a failed call, as the owner reads it in the dashboard too. */
export function hookFailure(error: unknown): string {
  if (error instanceof BuildHookAnswerError) return error.message;
  return `build hook failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** A hook call whose outcome is recorded: built up to the call's start on 2xx, a failure otherwise. */
export function trackedCall(track: BuildStatusDeps | undefined, call: () => Promise<void>): () => Promise<void> {
  if (!track) return call;
  return async () => {
    const startedAt = track.now();
    try {
      await call();
    } catch (error) {
      await recordBuildFailed(track, hookFailure(error)).catch(() => undefined);
      throw error;
    }
    await recordBuildSucceeded(track, startedAt);
  };
}

/**
 * A rebuilder that first records the request (when tracked), so a change whose call is lost or
 * fails is still known to be unbuilt and retried.
 */
export function recordingRequests(track: BuildStatusDeps | undefined, rebuild: RequestRebuild, log: (message: string) => void): RequestRebuild {
  if (!track) return rebuild;
  return ({ waitUntil } = {}) => {
    const work = recordBuildRequested(track)
      .catch((error: unknown) => log(`[publish] recording the build request failed: ${error instanceof Error ? error.message : String(error)}`))
      .then(async () => {
        const handed: Promise<unknown>[] = [];
        rebuild({ waitUntil: (promise) => handed.push(promise) });
        await Promise.all(handed);
      });
    waitUntil?.(work);
  };
}

/**
 * Calls the build hook (Netlify's in production, the local server's under `npm start`). A burst of
 * changes coalesces: while one call is in flight, further requests become a single call after it.
 * A failing hook is logged, never passed on: the content change itself already succeeded (with
 * `track`, it is retried by the every-minute check, src/core/publishing/build-status.ts).
 */
export function buildHookRebuilder(url: string | undefined, options: BuildHookOptions = {}): RequestRebuild {
  const { log = (message: string) => console.error(message), track } = options;
  if (!url) return () => undefined;
  const callHook = trackedCall(track, buildHookCall(url, options));
  let inFlight = false;
  let again = false;
  const call = async (): Promise<void> => {
    inFlight = true;
    try {
      await callHook();
    } catch (error) {
      log(`[publish] ${hookFailure(error)}`);
    } finally {
      inFlight = false;
    }
    if (again) {
      again = false;
      await call();
    }
  };
  return recordingRequests(
    track,
    ({ waitUntil } = {}) => {
      if (inFlight) {
        again = true;
        return;
      }
      const work = call();
      waitUntil?.(work);
    },
    log,
  );
}
