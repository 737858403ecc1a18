import { readFile } from "node:fs/promises";
import path from "node:path";

/** What `npm start` wrote about itself: its URLs and the database behind it. */
export interface LocalServerInfo {
  siteUrl: string;
  adminUrl: string;
  buildHookUrl: string;
  databaseUrl: string;
}

export async function localServerInfo(stateDir = process.env.E2E_STATE_DIR ?? "."): Promise<LocalServerInfo> {
  return JSON.parse(await readFile(path.join(stateDir, ".netlify", "local-server.json"), "utf8")) as LocalServerInfo;
}
