/**
 * Whether Playwright's browser download can be reached from here: asked before `npm install`
 * tries it (one quick request instead of Playwright's five attempts, which take 150 s where a
 * network swallows packets) and when no Chromium is found (to give the fix that works here).
 */
import { spawnSync } from "node:child_process";

/** The host Playwright downloads Chromium from, with the overrides its installer honours. */
export function playwrightDownloadHost(env: Record<string, string | undefined> = process.env): string {
  return env.PLAYWRIGHT_CHROMIUM_DOWNLOAD_HOST ?? env.PLAYWRIGHT_DOWNLOAD_HOST ?? "https://cdn.playwright.dev";
}

export type Reachability = { reachable: true } | { reachable: false; reason: string };

/**
 * Whether the download host answers at all within 3 s. Behind a proxy we cannot tell (Node's
 * fetch does not use HTTPS_PROXY; Playwright's installer does), so we answer yes and let the
 * installer find out. Synchronous, from a child process: Playwright reads its config synchronously.
 */
export function playwrightDownloadReachable(env: Record<string, string | undefined> = process.env): Reachability {
  if (env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy) return { reachable: true };
  const probe = `
    try {
      await fetch(${JSON.stringify(playwrightDownloadHost(env))}, { method: "HEAD", signal: AbortSignal.timeout(3000) });
    } catch (error) {
      const cause = error.cause?.message ?? error.message;
      process.stdout.write(cause);
      process.exitCode = 1;
    }`;
  const result = spawnSync(process.execPath, ["--input-type=module", "--eval", probe], { encoding: "utf8", timeout: 5000 });
  if (result.status === 0) return { reachable: true };
  return { reachable: false, reason: result.stdout.trim() || `no answer from ${playwrightDownloadHost(env)}` };
}
