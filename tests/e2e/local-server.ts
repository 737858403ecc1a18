import { test } from "@playwright/test";
import { readLocalServerInfo, type LocalServerInfo } from "../support/local-server-info.ts";

/**
 * The state folder of the `npm start` this test runs against: its Playwright worker's server's, set
 * as the project's metadata (the config starts several servers, each with its own port and state
 * folder, one a worker), or E2E_STATE_DIR.
 */
export function e2eStateDir(): string {
  const projectDir = (test.info().project.metadata as { stateDir?: string } | undefined)?.stateDir;
  return projectDir ?? process.env.E2E_STATE_DIR ?? ".";
}

/** The browser tests' server: `npm start` with its state in this project's state folder (set by the Playwright config). */
export function localServerInfo(stateDir = e2eStateDir()): Promise<LocalServerInfo> {
  return readLocalServerInfo(stateDir);
}
