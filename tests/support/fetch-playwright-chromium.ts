/**
 * `npm install`'s postinstall: fetches Playwright's Chromium for the browser tests
 * (`playwright install --no-shell chromium`) and, when the download is not reachable — as on our
 * CI machines, which use Debian's Chromium instead — says so in one line and lets the install
 * finish. `PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1` skips it.
 *
 * A quick request to the download host comes first: Playwright makes five attempts, each of which
 * waits 30 s for a silent socket where a network swallows packets (150 s in all). Should the host
 * answer and the download then stall, a shorter socket timeout and a ceiling on the whole run apply.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium } from "@playwright/test";
import { playwrightDownloadHost, playwrightDownloadReachable } from "./playwright-download.ts";

/** Per attempt: how long a connection may stay silent (Playwright's own default is 30 s). */
const socketTimeoutMs = 10_000;
/** The whole install, download included: room for Chromium's large download on a slow line. */
const installTimeoutMs = 10 * 60_000;

const skip = process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD;
if (skip && skip !== "0" && skip !== "false") {
  console.log("Playwright's Chromium: not fetched (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD is set)");
  process.exit(0);
}
const executable = chromium.executablePath();
if (existsSync(executable)) process.exit(0);

console.log("Playwright's Chromium: fetching it for the browser tests (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 skips this)…");
const started = performance.now();
const reachability = playwrightDownloadReachable();
const outcome = reachability.reachable ? await install() : { ok: false, reason: `${playwrightDownloadHost()} not reachable: ${reachability.reason}` };
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (outcome.ok) console.log(`Playwright's Chromium: installed in ${seconds} s (${executable})`);
else
  console.log(
    `Playwright's Chromium: not fetched (${outcome.reason}, after ${seconds} s); the browser tests will use a system Chromium if there is one`,
  );

/** Runs Playwright's installer with its output held back; on failure, the reason in a few words. */
function install(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const cli = createRequire(import.meta.url).resolve("@playwright/test/cli");
  const child = spawn(process.execPath, [cli, "install", "--no-shell", "chromium"], {
    env: { ...process.env, PLAYWRIGHT_DOWNLOAD_CONNECTION_TIMEOUT: process.env.PLAYWRIGHT_DOWNLOAD_CONNECTION_TIMEOUT ?? String(socketTimeoutMs) },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so that the timeout also ends the downloader it starts.
    detached: process.platform !== "win32",
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop(child.pid);
  }, installTimeoutMs);
  return new Promise((resolve) => {
    child.on("error", (error) => resolve({ ok: false, reason: error.message }));
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0 && existsSync(executable)) resolve({ ok: true });
      else if (timedOut) resolve({ ok: false, reason: `no result within ${String(installTimeoutMs / 60_000)} min` });
      else resolve({ ok: false, reason: firstCause(output) ?? `playwright install exited with ${String(code)}` });
    });
  });
}

/** The first underlying error in Playwright's output, e.g. "getaddrinfo ENOTFOUND cdn.playwright.dev". */
function firstCause(output: string): string | undefined {
  const causes = output.split("\n").flatMap((line) => /^Error: (.*)/.exec(line.trim())?.slice(1) ?? []);
  return causes.find((cause) => !/^(Failed to (download|install)|Download failure)/.test(cause)) ?? causes[0];
}

function stop(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === "win32" ? pid : -pid, "SIGKILL");
  } catch {
    // already gone
  }
}
