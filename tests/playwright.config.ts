import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { chromiumPath, currentLookup, MissingChromiumError } from "./support/chromium-path.ts";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));

/** The browser to run, or the one line that says how to get one (a stack trace would bury it). */
function chromiumPathOrExit(): string {
  try {
    return chromiumPath(currentLookup(), "tests");
  } catch (error) {
    if (!(error instanceof MissingChromiumError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

export const e2ePort = Number(process.env.E2E_PORT ?? 8899);
// The browser tests run their own sites in a fresh state folder, apart from the developer's data.
process.env.E2E_STATE_DIR ??= mkdtempSync(path.join(tmpdir(), "nf-e2e-"));
const e2eStateDir = process.env.E2E_STATE_DIR;

/**
 * The specs that take longest (measured: decision 0090), handed out first so the short ones fill
 * the end of the run on whichever server is free. Any order is correct: this one only keeps one
 * server from finishing a long spec alone while the other sits idle.
 */
const longestSpecs = [
  "admin-posts",
  "admin-session",
  "newsletter-send",
  "bounces-complaints",
  "blog-slugs-pages",
  "seo",
  "admin-subscribers-settings",
  "dashboard-sections",
  "dark-mode",
  "claims",
  "newsletter-on-publish",
  "images",
  "restart",
];

export interface E2eServer {
  port: number;
  stateDir: string;
}

/**
 * The `npm start` servers the specs run against at once (E2E_SERVERS, default 2: on this 2-core
 * machine two ran the suite in 12.0 min against 18.4 with one, at a load of 5–10; three reached a
 * load of 12 and logins missed their 5 s wait; decision 0047): each on its own
 * port (E2E_PORTS, a comma list, or E2E_PORT and the ports after it) with its own state folder, so
 * its database, files, site builds and build cache are its own.
 */
const serverCount = Math.max(1, Number(process.env.E2E_SERVERS ?? 2));
const ports = process.env.E2E_PORTS?.split(",").map(Number) ?? Array.from({ length: serverCount }, (_, index) => e2ePort + index);
export const e2eServers: E2eServer[] = ports.slice(0, serverCount).map((port, index) => ({
  port,
  stateDir: serverCount === 1 ? e2eStateDir : path.join(e2eStateDir, `server-${String(index + 1)}`),
}));

/**
 * The port of the server the purchase journey starts for itself (e2e/purchase.spec.ts: the shared
 * servers run without Stripe, so paid features stay hidden from the other specs and their page
 * budgets): E2E_PAYMENTS_PORT, or the one after the last shared server's.
 */
export const paymentsServerPort = Number(process.env.E2E_PAYMENTS_PORT ?? Math.max(...e2eServers.map((server) => server.port)) + 1);

/**
 * The port of the server the restart spec starts and stops itself (e2e/restart.spec.ts):
 * E2E_RESTART_PORT, or the one after the purchase journey's, so two checkouts' runs given their own
 * port ranges never start it on the same port.
 */
export const restartServerPort = Number(process.env.E2E_RESTART_PORT ?? paymentsServerPort + 1);

const specPattern = (names: string[]) => names.map((name) => new RegExp(`/${name}\\.spec\\.ts$`));

/**
 * The server of this Playwright worker: worker N of the run (its parallel index, which a worker
 * started again after a failure keeps) always uses server N, so each server still runs one spec at
 * a time, and the specs go to whichever server is free. Playwright loads this file again in each
 * worker process with TEST_PARALLEL_INDEX already set; the runner itself (no index) names server 1.
 * Fixed lists of specs per server left one server idle for half the run (decision 0090).
 */
const workerServer = e2eServers[Number(process.env.TEST_PARALLEL_INDEX ?? 0) % e2eServers.length] as E2eServer;
const use = { browserName: "chromium" as const, baseURL: `http://localhost:${String(workerServer.port)}` };

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: e2eServers.length,
  retries: 0,
  timeout: 60_000,
  // An answer past Playwright's default 5 s is slow on the loaded 2-core CI machine, not wrong (a save's toast, a
  // password's scrypt): each assertion waits up to 10 s. It passes as soon as it holds, so a check costs no more.
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: path.join(projectRoot, "tests/.results/playwright.json") }]],
  globalSetup: "./e2e/start-servers.ts",
  use: {
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
  // One worker a server, each taking the next spec (the longest first); a spec's address and state
  // folder are its worker's server's (tests/e2e/local-server.ts).
  projects: [
    { name: "longest", testMatch: specPattern(longestSpecs), metadata: { stateDir: workerServer.stateDir }, use },
    { name: "chromium", testIgnore: specPattern(longestSpecs), metadata: { stateDir: workerServer.stateDir }, use },
  ],
});
