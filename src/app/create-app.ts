import { createApiHandler, type ApiHandler } from "../api/api-handler.ts";
import { apiUrls } from "../api/api-urls.ts";
import { apiRoutes } from "../api/routes.ts";
import { isProduction, type ServerEnv } from "../config/server-env.ts";
import type { AppDeps } from "./app-deps.ts";
import { adminCredentials } from "../core/auth/admin-credentials.ts";
import type { SqlExecutor } from "../core/db/sql-executor.ts";
import type { FileStore } from "../core/files/file-store.ts";
import { MailNotConfiguredError, type Mailer } from "../core/mail/mailer.ts";
import { deliverQueuedMail } from "../core/mail/outbox-delivery.ts";
import { replyingMailer } from "../core/mail/reply-to.ts";
import { noKick, type KickSends } from "../core/newsletter/newsletter-background.ts";
import type { RequestRebuild } from "../core/publishing/rebuild.ts";
import { systemClock, type Clock } from "../core/shared/clock.ts";
import { siteAt } from "../core/shared/site.ts";
import { signerFor } from "./signer.ts";

/** What an app is made of; each composition root (function, `npm start`, site build, tests) picks its own. */
export interface AppParts {
  /** The checked configuration (`readServerEnv`): the only configuration anything below reads. */
  env: ServerEnv;
  db: SqlExecutor;
  files: FileStore;
  /** Sends email. Default: none configured, so a send fails with a message naming SMTP_URL. */
  mail?: Mailer;
  /** Asks for a site rebuild after a content change. Default: none (nothing to rebuild). */
  rebuild?: RequestRebuild;
  /** Starts a newsletter run at once (production's Background Function). Default: nothing (the sends wait for a timer). */
  kickSends?: KickSends;
  /** The clock every service reads and waits on. Default: the system clock; tests pass a fake one. */
  clock?: Clock;
  /**
   * How long anonymous answers of `shared` routes are shared between requests (src/api/shared-reads.ts).
   * Default 0, read every time: tests that change the database directly see it at once.
   */
  sharedReadMs?: number;
  /** Check every JSON answer against its declared schema (tests: drift from the contract fails them). */
  checkAnswers?: boolean;
}

export interface App {
  /** The dependencies domain services receive. */
  deps: AppDeps;
  /** The whole API: a web `Request` in, a `Response` out. */
  handleApi: ApiHandler;
  /** Releases the database's connections; the app is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * The one place the app is put together from its parts. Called once per function instance, once
 * by `npm start`, once per site build and by the tests; nothing below it reads `process.env`.
 */
export function createApp(parts: AppParts): App {
  const {
    env,
    db,
    files,
    mail = noMailer,
    rebuild = () => undefined,
    kickSends = noKick,
    clock = systemClock,
    sharedReadMs = 0,
    checkAnswers = false,
  } = parts;
  const deps: AppDeps = {
    db,
    files,
    env,
    admin: adminCredentials(env),
    rebuild,
    kickSends,
    clock,
    now: () => clock.now(),
    urls: apiUrls,
    // Replies go to MAIL_REPLY_TO or the contact_email setting (src/core/mail/reply-to.ts).
    mail: mail === noMailer ? mail : replyingMailer({ db, now: () => clock.now() }, mail, { fixed: env.MAIL_REPLY_TO }),
    site: siteAt(env.SITE_URL),
    signer: signerFor(env),
    // Newsletter links go through the signed click redirect unless the owner turned it off.
    clickTracking: env.CLICK_TRACKING !== "off",
    // Production holds mail back while the footer's postal address is the seeded placeholder.
    production: isProduction(env),
    // What a request queued is delivered right after its answer (kept alive by `waitUntil`); the
    // timer (`npm start`) and the Scheduled Function deliver whatever this leaves.
    deliverMail: () =>
      deliverQueuedMail(deps, { concurrency: env.SMTP_MAX_CONNECTIONS, stopClaimingAt: new Date(clock.now().getTime() + afterAnswerBudgetMs) }).catch(
        (error: unknown) => console.error("[mail] Delivering the outbox failed; the next run retries:", error),
      ),
  };
  const handleApi = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve(deps), sharedReadMs, checkAnswers });
  return {
    deps,
    handleApi,
    async close() {
      await mail.close();
      await db.close();
    },
  };
}

/** How long a request's own delivery run may claim mail after its answer (a function has seconds, not minutes). */
const afterAnswerBudgetMs = 10_000;

/** Where no SMTP server is configured (a site build, a bare `npm run dev`): sending says what to set. */
const noMailer: Mailer = {
  send: () => Promise.reject(new MailNotConfiguredError()),
  close: () => Promise.resolve(),
};
