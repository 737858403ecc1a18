import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));

/** Debian's Chromium (Playwright's own browser download can't run offline). */
function chromiumPath(): string {
  if (process.env.PLAYWRIGHT_CHROMIUM_PATH) return process.env.PLAYWRIGHT_CHROMIUM_PATH;
  try {
    return execFileSync("which", ["chromium"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error("No Chromium found: install Debian's `chromium` or set PLAYWRIGHT_CHROMIUM_PATH");
  }
}

export const e2ePort = Number(process.env.E2E_PORT ?? 8899);
// The browser tests run their own site in a fresh state folder, apart from the developer's data.
process.env.E2E_STATE_DIR ??= mkdtempSync(path.join(tmpdir(), "nf-e2e-"));

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"], ["json", { outputFile: path.join(projectRoot, "tests/.results/playwright.json") }]],
  use: {
    baseURL: `http://localhost:${String(e2ePort)}`,
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: "node netlify/local/start.ts",
    cwd: projectRoot,
    url: `http://localhost:${String(e2ePort)}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: { PORT: String(e2ePort), LOCAL_STATE_DIR: process.env.E2E_STATE_DIR },
  },
});
