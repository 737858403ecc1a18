import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * What `npm start` writes to `<state folder>/.netlify/local-server.json` (netlify/local/start.ts)
 * for the tools and tests that drive it.
 */
export interface LocalServerInfo {
  siteUrl: string;
  /** The hidden dashboard: `siteUrl` + `/ADMIN_PATH`. */
  adminUrl: string;
  /** POST here to rebuild the site. */
  buildHookUrl: string;
  /** The database behind the server. */
  databaseUrl: string;
  /** The local inbox page; absent when SMTP_URL sends mail out for real. */
  inboxUrl?: string;
  /** `smtp://127.0.0.1:<port>`: the catcher behind the inbox (no auth, no TLS); absent with SMTP_URL. */
  mailCatcherUrl?: string;
}

/** Reads what the `npm start` whose state folder (LOCAL_STATE_DIR) is `stateDir` wrote about itself. */
export async function readLocalServerInfo(stateDir: string): Promise<LocalServerInfo> {
  return JSON.parse(await readFile(path.join(stateDir, ".netlify", "local-server.json"), "utf8")) as LocalServerInfo;
}
