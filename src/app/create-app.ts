import { createApiHandler, type ApiHandler } from "../api/api-handler.ts";
import { apiUrls } from "../api/api-urls.ts";
import { apiRoutes } from "../api/routes.ts";
import { isProduction, stripeSettings, type ServerEnv } from "../config/server-env.ts";
import { stripeGateway } from "../adapters/stripe-gateway.ts";
import type { AppDeps } from "./app-deps.ts";
import { adminCredentials } from "../core/auth/admin-credentials.ts";
import type { SqlExecutor } from "../core/db/sql-executor.ts";
import type { FileStore } from "../core/files/file-store.ts";
import { MailNotConfiguredError, type Mailer } from "../core/mail/mailer.ts";
import { deliverQueuedMail } from "../core/mail/outbox-delivery.ts";
import { queuedMailRenderers, recordOutboxBounce } from "./mail-kinds.ts";
import { oneRunAtATime } from "../core/shared/one-run-at-a-time.ts";
import { replyingMailer } from "../core/mail/reply-to.ts";
import { noKick, type KickSends } from "../core/newsletter/newsletter-background.ts";
import type { RequestRebuild } from "../core/publishing/rebuild.ts";
import { systemClock, type Clock } from "../core/shared/clock.ts";
import { siteAt } from "../core/shared/site.ts";
import { signerFor } from "./signer.ts";
import { defaultWebsubHub, isLocalSite } from "./local-site.ts";
import { fetchFromSns } from "../adapters/sns-fetch.ts";
import { snsCertificates, type SnsFetch } from "../core/email-events/sns-signature.ts";
import { imageFetcher } from "../adapters/image-fetcher.ts";
import { pageCheck } from "../adapters/page-check.ts";
import type { CheckPage } from "../core/newsletter/newsletter-page-check.ts";
import { nodeArchives } from "../adapters/node-archives.ts";
import type { StartJob } from "../core/imports/import-runs.ts";
import { runJob } from "./run-job.ts";
import { webhookHostCheck, webhookPoster } from "../adapters/webhook-poster.ts";
import { deliverWebhooks, type PostWebhook } from "../core/webhooks/webhook-delivery.ts";
import { answerFediverse, fediverseSender, type FediverseDeps } from "../adapters/fediverse-federation.ts";
import { deliverFediverse } from "../core/fediverse/fediverse-delivery.ts";

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
  /** Starts an import, backup or restore run elsewhere (production's Background Function). Default: in this process. */
  startJob?: StartJob;
  /**
   * How long anonymous answers of `shared` routes are shared between requests (src/api/shared-reads.ts).
   * Default 0, read every time: tests that change the database directly see it at once.
   */
  sharedReadMs?: number;
  /** Check every JSON answer against its declared schema (tests: drift from the contract fails them). */
  checkAnswers?: boolean;
  /** GETs from Amazon SNS (signing certificates, subscription confirmations). Default: the network; tests serve their own. */
  snsFetch?: SnsFetch;
  /** Whether a post's public page answers 200 (a send starts only then). Default: a GET of the URL; tests pass their own. */
  checkPage?: CheckPage;
  /** POSTs a webhook delivery. Default: the network with the SSRF rules (src/adapters/webhook-poster.ts). */
  postWebhook?: PostWebhook;
  /**
   * Every provider pause's length (the outbox's and a send's). Default: 1 minute, then 2
   * (`pauseDelayMs`); `npm start` takes PROVIDER_PAUSE_MS, which the browser tests set short.
   */
  providerPauseMs?: number | undefined;
}

export interface App {
  /** The dependencies domain services receive. */
  deps: AppDeps;
  /** The whole API: a web `Request` in, a `Response` out. */
  handleApi: ApiHandler;
  /**
   * The ActivityPub side (WebFinger, NodeInfo, `/fediverse/*`; docs/fediverse.md). What an inbox
   * request queued (an Accept) is delivered right after the answer, kept alive by `waitUntil`.
   */
  handleFediverse: (request: Request, client?: { waitUntil?: (promise: Promise<unknown>) => void }) => Promise<Response>;
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
    startJob,
    sharedReadMs = 0,
    checkAnswers = false,
    snsFetch = fetchFromSns,
    checkPage = pageCheck(),
    providerPauseMs,
  } = parts;
  const webhooksLocal = isLocalSite(env);
  // Remote actors are fetched from loopback and private addresses only under `npm start` (the import's rule).
  const fediverse: FediverseDeps & { env: ServerEnv } = {
    db,
    now: () => clock.now(),
    site: siteAt(env.SITE_URL),
    urls: apiUrls,
    allowPrivateAddress: webhooksLocal,
    env,
  };
  const deps: AppDeps = {
    sendFediverseActivity: fediverseSender(fediverse),
    db,
    files,
    env,
    admin: adminCredentials(env),
    rebuild,
    kickSends,
    clock,
    now: () => clock.now(),
    urls: apiUrls,
    fetchImage: imageFetcher({ allowPrivateHosts: env.IMPORT_ALLOW_PRIVATE_HOSTS === "1" && !isProduction(env) }),
    // Backups and restores: zips as streams, a restore's upload on the temporary disk (docs/decisions/0040-streaming-backups.md).
    archives: nodeArchives,
    // In process (tests, `npm start`): the run outlives the answer through `waitUntil` when there is one.
    startJob:
      startJob ??
      ((job, { waitUntil } = {}) => {
        const run = runJob(deps, job).catch((error: unknown) => console.error(`[${job.kind}] run ${String(job.id)} failed:`, error));
        waitUntil?.(run);
      }),
    // Replies go to MAIL_REPLY_TO or the contact_email setting (src/core/mail/reply-to.ts).
    mail: mail === noMailer ? mail : replyingMailer({ db, now: () => clock.now() }, mail, { fixed: env.MAIL_REPLY_TO }),
    site: siteAt(env.SITE_URL),
    signer: signerFor(env),
    // Bounce and complaint webhooks: a provider is heard once its secret is set (docs/email.md).
    webhooks: {
      postmark: env.POSTMARK_WEBHOOK_AUTH,
      resend: env.RESEND_WEBHOOK_SECRET,
      mailgun: env.MAILGUN_WEBHOOK_SIGNING_KEY,
      sendgrid: env.SENDGRID_WEBHOOK_PUBLIC_KEY,
      sesTopicArns: env.SES_SNS_TOPIC_ARNS?.split(",").map((arn) => arn.trim()),
    },
    snsFetch,
    // Outgoing webhooks: the import's SSRF rules on every delivery; loopback only under `npm start`.
    webhooksLocal,
    postWebhook: parts.postWebhook ?? webhookPoster({ allowPrivateHosts: webhooksLocal }),
    checkWebhookHost: webhookHostCheck({ allowPrivateHosts: webhooksLocal }),
    websubDefaultHub: defaultWebsubHub(env),
    adminPath: env.ADMIN_PATH,
    deliverWebhooks: oneRunAtATime(() =>
      deliverWebhooks(deps, { stopClaimingAt: new Date(clock.now().getTime() + afterAnswerBudgetMs) }).catch((error: unknown) =>
        console.error("[webhooks] Delivering webhooks failed; the next run retries:", error),
      ),
    ),
    snsCertificate: snsCertificates(snsFetch),
    // Payments through the owner's Stripe account, once both secrets are set (docs/payments.md).
    payments: ((settings) => settings && stripeGateway(settings))(stripeSettings(env)),
    // Newsletter links go through the signed click redirect unless the owner turned it off.
    clickTracking: env.CLICK_TRACKING !== "off",
    // Production holds mail back while the footer's postal address is the seeded placeholder.
    production: isProduction(env),
    providerPauseMs,
    checkPage,
    setup: {
      production: isProduction(env),
      passwordGenerated: env.ADMIN_PASSWORD_GENERATED === "1",
      siteHost: env.SITE_URL ? new URL(env.SITE_URL).hostname : undefined,
      sendingDomain: env.MAIL_FROM ? /@([^>\s]+)>?\s*$/.exec(env.MAIL_FROM)?.[1] : undefined,
    },
    // The delivery engine's hooks: each kind's renderer and the SMTP-bounce hook (src/app/mail-kinds.ts).
    queuedMailRenderers: () => queuedMailRenderers(deps),
    onUnknownRecipient: (bounce) => recordOutboxBounce(deps, bounce),
    // What a request queued is delivered right after its answer (kept alive by `waitUntil`); the
    // timer (`npm start`) and the Scheduled Function deliver whatever this leaves.
    // One run at a time per instance: a request that queued mail while a run goes asks it to look again.
    deliverMail: oneRunAtATime(() =>
      deliverQueuedMail(deps, { concurrency: env.SMTP_MAX_CONNECTIONS, stopClaimingAt: new Date(clock.now().getTime() + afterAnswerBudgetMs) }).catch(
        (error: unknown) => console.error("[mail] Delivering the outbox failed; the next run retries:", error),
      ),
    ),
  };
  const handleApi = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve(deps), sharedReadMs, checkAnswers });
  const deliverFediverseNow = oneRunAtATime(() =>
    deliverFediverse(deps, { stopClaimingAt: new Date(clock.now().getTime() + afterAnswerBudgetMs) }).then(
      () => undefined,
      (error: unknown) => console.error("[fediverse] Delivering failed; the next run retries:", error),
    ),
  );
  return {
    deps,
    handleApi,
    async handleFediverse(request, client = {}) {
      const answer = await answerFediverse(fediverse, request);
      if (request.method === "POST" && answer.status < 300) client.waitUntil?.(deliverFediverseNow());
      return answer;
    },
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
