import { blobsFileStore } from "../adapters/blobs-file-store.ts";
import { apiUrls } from "../api/api-urls.ts";
import type { ServerEnv } from "../config/server-env.ts";
import type { AppDeps } from "./app-deps.ts";
import { configuredDatabase } from "./configured-database.ts";
import { defaultWebsubHub } from "./local-site.ts";

/** What the site build reads with: its pages' data, the covers of share images, the URLs, the hub they name. */
export type SiteBuildDeps = Pick<AppDeps, "db" | "files" | "urls" | "websubDefaultHub">;

/**
 * The site build's parts, and only those: booting the whole app (the API, Stripe, Fedify, the mailer) for
 * a few reads cost every full build about 1.5 CPU-s (docs/decisions/0097-markup-rendered-once-a-build.md).
 */
export async function siteBuildDeps(env: ServerEnv): Promise<SiteBuildDeps> {
  return { db: await configuredDatabase(env), files: blobsFileStore(), urls: apiUrls, websubDefaultHub: defaultWebsubHub(env) };
}
