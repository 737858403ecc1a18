import { isProduction, type ServerEnv } from "../config/server-env.ts";
import { localWebsubHubPath, publicWebsubHub } from "../core/publishing/websub.ts";

/** `npm start`: not production, and the site's own address is on this machine (docs/webhooks.md). */
export function isLocalSite(env: ServerEnv): boolean {
  return !isProduction(env) && env.SITE_URL !== undefined && ["localhost", "127.0.0.1", "[::1]"].includes(new URL(env.SITE_URL).hostname);
}

/** WebSub (docs/decisions/0077-websub.md): with no hub set, Google's public one; under `npm start` the local hub, which shows the pings. */
export function defaultWebsubHub(env: ServerEnv): string {
  return isLocalSite(env) && env.SITE_URL ? `${env.SITE_URL.replace(/\/+$/, "")}${localWebsubHubPath}` : publicWebsubHub;
}
