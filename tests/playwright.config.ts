import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { chromiumPath, MissingChromiumError } from "./support/chromium-path.ts";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));

/** The browser to run, or the one line that says how to get one (a stack trace would bury it). */
function chromiumPathOrExit(): string {
  try {
    return chromiumPath();
  } catch (error) {
    if (!(error instanceof MissingChromiumError)) throw error;
    console.error(error.message);
    process.exit(1);
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
      executablePath: chromiumPathOrExit(),
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
    // No SMTP_URL even if the shell has one: the tests' mail goes to the local catcher, never out.
    // POSTMARK_WEBHOOK_AUTH: the bounce and complaint webhook the browser test posts to (e2e/bounces-complaints.spec.ts).
    // IMPORT_ALLOW_PRIVATE_HOSTS: an import test serves the old blog's images from loopback.
    env: {
      PORT: String(e2ePort),
      LOCAL_STATE_DIR: process.env.E2E_STATE_DIR,
      SMTP_URL: "",
      POSTMARK_WEBHOOK_AUTH: "e2e-hooks:postmark-e2e-password",
      IMPORT_ALLOW_PRIVATE_HOSTS: "1",
      // Every spec signs up from 127.0.0.1 against one server: some 20 signups in 10 minutes passed the
      // per-address limit (10) and the next signup got a 429. The limits themselves are tested in vitest.
      RATE_LIMIT_MULTIPLIER: "10",
    },
  },
});
