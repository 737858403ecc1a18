import type { ServerEnv } from "../config/server-env.ts";
import type { AdminCredentials } from "./auth/admin-credentials.ts";
import type { SqlExecutor } from "./db/sql-executor.ts";
import type { SignedDownload } from "./downloads/download-link.ts";
import type { FileStore } from "./files/file-store.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { KickSends } from "./newsletter/newsletter-background.ts";
import type { RequestRebuild } from "./publishing/rebuild.ts";

/** The URLs services hand out (they never spell the API's paths). */
export interface ApiUrls {
  /** Where a stored file (an `images/…` key) is served. */
  file: (key: string) => string;
  /** Whether a URL is one `file` makes: an image stored and served by the site itself. */
  isFile: (url: string) => boolean;
  /** A resource's signed download link. */
  downloadFile: (id: number, signed: SignedDownload) => string;
  /** The page a confirmation link opens (a path: email makes it absolute on SITE_URL). */
  confirmSubscription: (token: string) => string;
  /** The unsubscribe page, which is also the RFC 8058 one-click endpoint (a path). */
  unsubscribe: (token: string) => string;
}

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
  /** The URLs services hand out, built by the API next to the routes that answer them. */
  urls: ApiUrls;
  /** Sends email (SMTP in production, the local catcher under `npm start`, a real sink in tests). */
  mail: Mailer;
  /**
   * Starts a newsletter run now, without waiting (production: the Background Function). Does
   * nothing in tests and under `npm start`, whose in-process timer runs the sends.
   */
  kickSends: KickSends;
  /**
   * Keeps the platform running for work that may outlive the response (Netlify's
   * `context.waitUntil`); absent outside a request.
   */
  waitUntil?: (promise: Promise<unknown>) => void;
}
