import { readLocalServerInfo, type LocalServerInfo } from "../support/local-server-info.ts";

/** The browser tests' server: `npm start` with its state in E2E_STATE_DIR (set by the Playwright config). */
export function localServerInfo(stateDir = process.env.E2E_STATE_DIR ?? "."): Promise<LocalServerInfo> {
  return readLocalServerInfo(stateDir);
}
