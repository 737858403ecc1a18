import { readServerEnv } from "../config/server-env.ts";
import { configuredParts, type LocalMail } from "./configured-parts.ts";
import { createApp, type App, type AppParts } from "./create-app.ts";
import { keptUnlessFailed } from "../core/shared/kept-unless-failed.ts";

export interface BootOptions {
  /** Where `npm start` sends mail instead (its local catcher, on a thread of its own). */
  localMail?: LocalMail;
  /** Parts a composition root replaces (`npm start`'s in-process sends need no kick). */
  overrides?: Partial<AppParts>;
}

/**
 * The one app bootstrap: checks an environment (`process.env` in a function or a build, `npm
 * start`'s assembled one), connects the parts it configures and puts the app together. Used by
 * every function entry, the site build and `npm start`; tests call `createApp` with their own parts.
 */
export async function bootApp(env: Record<string, string | undefined> = process.env, options: BootOptions = {}): Promise<App> {
  const serverEnv = readServerEnv(env);
  return createApp({ ...(await configuredParts(serverEnv, options.localMail)), ...options.overrides });
}

/**
 * One app for as long as the instance stays warm, booted on first use. A failed boot (a missing
 * variable, a database down) is not kept: the next call tries again.
 */
export function warmApp(boot: () => Promise<App> = () => bootApp()): () => Promise<App> {
  return keptUnlessFailed(boot);
}
