import type { ServerEnv } from "../config/server-env.ts";
import type { AdminCredentials } from "./auth/admin-credentials.ts";
import type { SqlExecutor } from "./db/sql-executor.ts";
import type { FileStore } from "./files/file-store.ts";
import type { RequestRebuild } from "./publishing/rebuild.ts";

/**
 * What domain services are given: the database, the file store, the configuration and a clock.
 * Put together in one place, `createApp` (src/app/create-app.ts).
 */
export interface AppDeps {
  db: SqlExecutor;
  files: FileStore;
  env: ServerEnv;
  admin: AdminCredentials;
  /** Asks for the static site to be rebuilt after a content change (never throws). */
  rebuild: RequestRebuild;
  now: () => Date;
}
