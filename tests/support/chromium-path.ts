/**
 * The Chromium that the browser tests (tests/playwright.config.ts) and the bench's Lighthouse
 * drive, looked up in this order:
 *   1. `PLAYWRIGHT_CHROMIUM_PATH`;
 *   2. Playwright's own Chromium, which `npm install` tries to fetch (tests/support/fetch-playwright-chromium.ts);
 *   3. a system `chromium`, `chromium-browser` or `google-chrome` on PATH (Debian's on our CI
 *      machines, where Playwright's download is not reachable); for the browser tests, Debian's
 *      `chromium-headless-shell` first, when it is there.
 *
 * The browser tests take the headless shell (the old headless mode, as a separate binary: what
 * Playwright itself runs headless tests in) over the full browser when both are installed: on the
 * 2-core CI machine Chromium was 670 of the 1,109 CPU seconds of a whole Playwright run, and the
 * same four specs took 116 CPU seconds in the shell against 161 in the full browser (issue 38,
 * point 6). Lighthouse needs the full browser, so the bench keeps it.
 */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { playwrightDownloadReachable } from "./playwright-download.ts";

/** What the lookup reads from the machine; tests pass their own. */
export interface ChromiumLookup {
  /** Supplies `PLAYWRIGHT_CHROMIUM_PATH` and `PATH`. */
  env: Record<string, string | undefined>;
  /** Where Playwright's Chromium is when installed (`chromium.executablePath()`), present or not. */
  playwrightChromium: string;
  platform: NodeJS.Platform;
  /** Whether this process runs as root (then installing a system package needs no `sudo`). */
  root: boolean;
  /** Whether Playwright's browser download can be reached; asked only when no Chromium is found. */
  downloadReachable: () => boolean;
}

export interface FoundChromium {
  path: string;
  source: "PLAYWRIGHT_CHROMIUM_PATH" | "Playwright" | "PATH";
}

/** The names a system Chromium goes by on PATH, in order of preference. */
export const systemChromiumNames = ["chromium", "chromium-browser", "google-chrome"] as const;

/**
 * What the browser is for: `tests` (Playwright's specs, which run headless and take the headless
 * shell when the system has one) or `full` (Lighthouse, which needs the whole browser).
 */
export type ChromiumUse = "tests" | "full";

/** The system names to look for on PATH for `use`, in order of preference. */
export function systemNamesFor(use: ChromiumUse): readonly string[] {
  return use === "tests" ? ["chromium-headless-shell", ...systemChromiumNames] : systemChromiumNames;
}

/** No Chromium anywhere; the message is one line with the command that installs one here. */
export class MissingChromiumError extends Error {
  override name = "MissingChromiumError";
}

/** The lookup on this machine, for this process. */
export function currentLookup(): ChromiumLookup {
  return {
    env: process.env,
    // The full Chromium (e.g. ms-playwright/chromium-1255/chrome-linux64/chrome), not the
    // headless shell Playwright would pick for headless runs by itself: Lighthouse needs the full
    // browser, and the tests then run in the same one. It is all the postinstall step fetches.
    playwrightChromium: chromium.executablePath(),
    platform: process.platform,
    root: process.getuid?.() === 0,
    downloadReachable: () => playwrightDownloadReachable().reachable,
  };
}

/** The first Chromium in the order above, or undefined when there is none. */
export function findChromium(lookup: ChromiumLookup = currentLookup(), use: ChromiumUse = "full"): FoundChromium | undefined {
  const configured = lookup.env.PLAYWRIGHT_CHROMIUM_PATH;
  if (configured) {
    // A path set on purpose that leads nowhere is a mistake to report, not a reason to pick another browser.
    if (!isExecutable(configured)) {
      throw new MissingChromiumError(`PLAYWRIGHT_CHROMIUM_PATH=${configured} is not an executable file: fix or unset it`);
    }
    return { path: configured, source: "PLAYWRIGHT_CHROMIUM_PATH" };
  }
  if (isExecutable(lookup.playwrightChromium)) return { path: lookup.playwrightChromium, source: "Playwright" };
  for (const name of systemNamesFor(use)) {
    const found = onPath(name, lookup);
    if (found) return { path: found, source: "PATH" };
  }
  return undefined;
}

/** The Chromium's path; throws {@link MissingChromiumError} with the fix when there is none. */
export function chromiumPath(lookup: ChromiumLookup = currentLookup(), use: ChromiumUse = "full"): string {
  const found = findChromium(lookup, use);
  if (!found) throw new MissingChromiumError(`No Chromium for the browser tests: ${installAdvice(lookup)}`);
  return found.path;
}

/**
 * How to get a Chromium here: Playwright's when its download is reachable (with the system
 * libraries it needs on Debian and Ubuntu), else the system package where there is a package manager.
 */
export function installAdvice(lookup: ChromiumLookup): string {
  const apt = lookup.platform === "linux" && onPath("apt-get", lookup) !== undefined;
  const orSetPath = "or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium";
  if (lookup.downloadReachable()) {
    return `run \`npx playwright install ${apt ? "--with-deps " : ""}chromium\`, ${orSetPath}`;
  }
  const sudo = lookup.root ? "" : "sudo ";
  const systemPackage = apt ? "apt-get install chromium" : lookup.platform === "linux" && onPath("dnf", lookup) ? "dnf install chromium" : undefined;
  if (systemPackage) {
    return `run \`${sudo}${systemPackage}\` (Playwright's browser download is not reachable from here), ${orSetPath}`;
  }
  return `Playwright's browser download is not reachable from here: run \`npx playwright install chromium\` once it is, ${orSetPath}`;
}

function onPath(name: string, lookup: ChromiumLookup): string | undefined {
  const names = lookup.platform === "win32" ? [`${name}.exe`, `${name}.cmd`] : [name];
  const dirs = (lookup.env.PATH ?? lookup.env.Path ?? "").split(lookup.platform === "win32" ? ";" : ":").filter(Boolean);
  for (const dir of dirs) {
    for (const file of names) {
      const candidate = path.join(dir, file);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
