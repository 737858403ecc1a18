import { databaseUrl, isProduction, readServerEnv, type ServerEnv } from "../config/server-env.ts";
import { InvalidEnvironmentError } from "../config/env-errors.ts";
import { adminCredentials, type AdminCredentials } from "./auth/admin-credentials.ts";
import { connectDatabase } from "../adapters/connect-database.ts";
import type { SqlExecutor } from "./db/sql-executor.ts";
import { blobsFileStore } from "../adapters/blobs-file-store.ts";
import type { FileStore } from "./files/file-store.ts";
import { buildHookRebuilder, type RequestRebuild } from "./publishing/rebuild.ts";
import { sharedRebuilder } from "./publishing/shared-rebuilder.ts";

/** What domain services are given: the database, the file store, the configuration and a clock. */
export interface AppDeps {
  db: SqlExecutor;
  files: FileStore;
  env: ServerEnv;
  admin: AdminCredentials;
  /** Asks for the static site to be rebuilt after a content change (never throws). */
  rebuild: RequestRebuild;
  now: () => Date;
}

let cached: Promise<AppDeps> | undefined;

/**
 * The dependencies of this process, built once from the environment (a function's cold start,
 * a site build, the local server) and reused while the instance stays warm.
 */
export function appDeps(): Promise<AppDeps> {
  cached ??= createAppDeps().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function createAppDeps(): Promise<AppDeps> {
  const env = readServerEnv();
  const url = databaseUrl(env);
  if (!url) {
    throw new InvalidEnvironmentError([
      "DATABASE_URL: no database configured (set DATABASE_URL, or enable Netlify DB which sets NETLIFY_DB_URL)",
    ]);
  }
  // Netlify's local emulation serves a single Postgres session: one connection keeps callers from
  // interleaving inside each other's transactions.
  const localEmulation = !env.DATABASE_URL && env.NETLIFY_DB_DRIVER === "server";
  const db = await connectDatabase(url, localEmulation ? { maxConnections: 1 } : {});
  return {
    db,
    files: blobsFileStore(),
    env,
    admin: adminCredentials(env),
    // On Netlify, instances share the hook's timing through the database; locally one process does.
    rebuild:
      isProduction(env) && env.BUILD_HOOK_URL
        ? sharedRebuilder({ db, url: env.BUILD_HOOK_URL })
        : buildHookRebuilder(env.BUILD_HOOK_URL),
    now: () => new Date(),
  };
}
