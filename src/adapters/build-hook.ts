import type { RequestRebuild } from "../core/publishing/rebuild.ts";

export interface BuildHookOptions {
  fetch?: typeof globalThis.fetch;
  log?: (message: string) => void;
  /** Give up on a hook call after this long. */
  timeoutMs?: number;
}

/**
 * Calls the build hook (Netlify's in production, the local server's under `npm start`). A burst of
 * changes coalesces: while one call is in flight, further requests become a single call after it.
 * A failing hook is logged, never passed on: the content change itself already succeeded.
 */
export function buildHookRebuilder(url: string | undefined, options: BuildHookOptions = {}): RequestRebuild {
  const { fetch = globalThis.fetch, log = (message: string) => console.error(message), timeoutMs = 10_000 } = options;
  if (!url) return () => undefined;
  let inFlight = false;
  let again = false;
  const call = async (): Promise<void> => {
    inFlight = true;
    try {
      const response = await fetch(url, { method: "POST", signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) log(`[publish] build hook answered ${String(response.status)}`);
      await response.body?.cancel();
    } catch (error) {
      log(`[publish] build hook failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      inFlight = false;
    }
    if (again) {
      again = false;
      await call();
    }
  };
  return ({ waitUntil } = {}) => {
    if (inFlight) {
      again = true;
      return;
    }
    const work = call();
    waitUntil?.(work);
  };
}
