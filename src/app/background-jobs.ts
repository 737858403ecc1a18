import { runRequestHeader, spendRunRequest, verifyRunRequest } from "../adapters/background-run.ts";
import { parseMovingJob } from "../adapters/moving-background.ts";
import { backupIfDue } from "../core/backups/backup-runs.ts";
import { deliverQueuedMail } from "../core/mail/outbox-delivery.ts";
import { runBackgroundSends } from "../core/newsletter/newsletter-background.ts";
import { runDueSends } from "../core/newsletter/newsletter-watchdog.ts";
import { publishDuePosts } from "../core/posts/posts.service.ts";
import { retryUnbuiltChanges } from "../core/publishing/build-status.ts";
import { pingHubs } from "../core/publishing/websub.ts";
import { queueWeeklyDigests } from "../core/newsletter/weekly-digest.ts";
import { runDueSequenceSteps } from "../core/sequences/sequences.service.ts";
import type { AppDeps } from "./app-deps.ts";
import { bootApp } from "./boot-app.ts";
import type { App } from "./create-app.ts";
import { runJob } from "./run-job.ts";
import { deliverWebhooks } from "../core/webhooks/webhook-delivery.ts";
import { promoteFediverseChanges } from "../core/fediverse/fediverse-changes.ts";
import { deliverFediverse } from "../core/fediverse/fediverse-delivery.ts";
import { queueCommentsWaitingNotice } from "../core/comments/comment-notices.ts";

/** What one run of a background job is handed, on Netlify and under `npm start` alike. */
export interface JobRun {
  deps: AppDeps;
  /** When the run stops claiming work: its start, by the app's clock, plus the job's budget. */
  deadline: Date;
  /** How long a claimed batch is held: unset on Netlify (the queue's own lease), shorter under `npm start`. */
  leaseMs?: number | undefined;
  /** A line for the log, prefixed by the caller (`[no-filter]` under `npm start`). */
  log: (line: string) => void;
  /** A call the run starts (a build hook, a Background Function's start) that must end before the run does. */
  waitUntil: (call: Promise<unknown>) => void;
}

export interface BackgroundJob {
  /** Its Scheduled Function: `netlify/functions/<name>.ts`, whose `config` holds the schedule. */
  name: string;
  /** How often `npm start`'s ticker (netlify/local/ticker.ts) runs it. */
  localEveryMs: number;
  /** How long a run may claim work (a Scheduled Function is stopped after 30 s). */
  budgetMs: number;
  /** Whether `npm start` runs it at once, not only after its first interval. */
  runAtStart?: boolean;
  /** One bounded run, safe when replayed or overlapped (leases or idempotent updates). */
  run: (job: JobRun) => Promise<void>;
}

/**
 * Every background job, once: its Scheduled Function on Netlify (a two-line entry in
 * netlify/functions/ with its schedule in a static `config`) and `npm start`'s ticker both read this
 * table. A new job is a row here, its entry file and its own code (tests/unit/background-jobs.test.ts
 * fails when a row and an entry do not match).
 */
export const backgroundJobs = [
  {
    // Each scheduled post whose time has come goes live and the build hook is called; a change
    // whose build failed is built again with backoff. A post goes live once whichever run gets it.
    name: "publish-due-posts",
    // Locally every 5 s (was 30 s: a post went live up to half a minute late; one indexed query a run).
    localEveryMs: 5000,
    budgetMs: 20_000,
    runAtStart: true,
    run: async ({ deps, deadline, leaseMs, log, waitUntil }) => {
      const published = await publishDuePosts(deps, { waitUntil });
      // Named by title and address: a bare id ("went live: 12") read like a count of posts.
      const named = published.map((post) => `“${post.title}” (${post.url})`).join(", ");
      if (published.length > 0) {
        log(`[publish] went live: ${named}; build hook called`);
        // Their `post.published` now, in this run: waiting for the watchdog's next minute could take
        // the event past 60 seconds after the post went live (issue 46 point 4).
        await deliverWebhooks(deps, { stopClaimingAt: deadline, ...(leaseMs && { leaseMs }) });
      } else if (await retryUnbuiltChanges(deps, { waitUntil })) log("[publish] the site is behind its content: build hook called again");
    },
  },
  {
    // The mail watchdog: the outbox (what a request's own run left: a frozen instance, a retry due,
    // SMTP back after an outage), the WebSub pings of changes now live, then the newsletter sends
    // that wait and are due once their post's page answers 200 (decision 0038), and every send with work due. Rows are leased: replays and
    // overlapping runs send nothing twice. Under `npm start` it is also the sends' only worker.
    name: "newsletter-watchdog",
    localEveryMs: 1000,
    budgetMs: 20_000,
    run: async ({ deps, deadline, leaseMs, log }) => {
      const concurrency = deps.env.SMTP_MAX_CONNECTIONS;
      const mail = await deliverQueuedMail(deps, { concurrency, stopClaimingAt: deadline, ...(leaseMs && { leaseMs }) });
      if (mail.sent + mail.failed + mail.retried > 0) {
        log(`[mail] outbox: ${String(mail.sent)} sent, ${String(mail.failed)} failed, ${String(mail.retried)} to retry`);
      }
      // Outgoing webhooks: what a request's own run left (a retry due, an endpoint back up).
      const hooks = await deliverWebhooks(deps, { stopClaimingAt: deadline, ...(leaseMs && { leaseMs }) });
      if (hooks.sent + hooks.failed + hooks.retried > 0) {
        log(`[webhooks] ${String(hooks.sent)} delivered, ${String(hooks.failed)} failed, ${String(hooks.retried)} to retry`);
      }
      // WebSub: the post changes whose page now shows them, pinged to the hub; a hub down is retried (decision 0077).
      // Its failure is logged, never in the way of the sends below (the next run tries again).
      const pings = await pingHubs(deps, { stopClaimingAt: deadline, ...(leaseMs && { leaseMs }) }).catch((error: unknown) => {
        log(`[websub] pinging the hub failed, the next run retries: ${error instanceof Error ? error.message : String(error)}`);
        return { sent: 0, failed: 0, retried: 0 };
      });
      if (pings.sent + pings.failed + pings.retried > 0) {
        log(`[websub] ${String(pings.sent)} hub pings sent, ${String(pings.failed)} failed, ${String(pings.retried)} to retry`);
      }
      // The fediverse (issue 45): post changes now live become deliveries to the followers' inboxes,
      // then those due (an Accept a request left, a retry) go. A failure waits for the next run.
      const activities = await promoteFediverseChanges(deps)
        .then(() => deliverFediverse(deps, { stopClaimingAt: deadline, ...(leaseMs && { leaseMs }) }))
        .catch((error: unknown) => {
          log(`[fediverse] delivering failed, the next run retries: ${error instanceof Error ? error.message : String(error)}`);
          return { sent: 0, failed: 0, retried: 0 };
        });
      if (activities.sent + activities.failed + activities.retried > 0) {
        log(
          `[fediverse] ${String(activities.sent)} activities delivered, ${String(activities.failed)} failed, ${String(activities.retried)} to retry`,
        );
      }
      let finished = false;
      for (const [sendId, run] of await runDueSends(deps, { concurrency, stopClaimingAt: deadline, ...(leaseMs && { leaseMs }) })) {
        finished ||= run.finished;
        log(
          `[newsletter] send ${String(sendId)}: ${String(run.sent)} sent, ${String(run.failed)} failed, ${String(run.skipped)} skipped${run.finished ? ", done" : ""}${run.paused ? `, paused: ${run.paused}` : ""}${run.stopped ? `, stopped: ${run.stopped}` : ""}`,
        );
      }
      // A send finished in this round: its `newsletter.sent` now, not a minute later (issue 46 point 4).
      if (finished) await deliverWebhooks(deps, { stopClaimingAt: deadline, ...(leaseMs && { leaseMs }) });
    },
  },
  {
    // Each enrolled person's next step once its delay has passed (a step due while nothing ran goes
    // out now, once), queued in the first half of the budget, then the outbox delivered.
    // Locally every 5 s: a step with no delay follows the one before it within seconds.
    name: "run-sequences",
    localEveryMs: 5000,
    budgetMs: 20_000,
    runAtStart: true,
    run: async ({ deps, deadline, leaseMs, log }) => {
      const queueUntil = new Date(deadline.getTime() - 10_000);
      const run = await runDueSequenceSteps(deps, { stopAt: queueUntil });
      if (run.queued === 0) return;
      log(`[sequences] ${String(run.queued)} steps queued`);
      await deliverQueuedMail(deps, { concurrency: deps.env.SMTP_MAX_CONNECTIONS, stopClaimingAt: deadline, ...(leaseMs && { leaseMs }) });
    },
  },
  {
    // The weekly digest (issue 42 point 2): once the owner's day and hour have come, each weekly
    // reader with a post that week in their topics gets one digest, queued in the first half of the
    // budget (each reader and week claimed once, whatever runs), then the outbox delivered.
    name: "weekly-digest",
    localEveryMs: 60_000,
    budgetMs: 20_000,
    runAtStart: true,
    run: async ({ deps, deadline, leaseMs, log }) => {
      const run = await queueWeeklyDigests(deps, { stopAt: new Date(deadline.getTime() - 10_000) });
      if (run.queued === 0) return;
      log(`[digest] ${String(run.queued)} weekly digests queued for the week ending ${run.weekEnds?.toISOString() ?? ""}`);
      await deliverQueuedMail(deps, { concurrency: deps.env.SMTP_MAX_CONNECTIONS, stopClaimingAt: deadline, ...(leaseMs && { leaseMs }) });
    },
  },
  {
    // The owner's "comments are waiting" email (issue 44 point 5, decision 0083): when comments wait
    // that no email listed yet, one email listing them, at most one an hour whatever runs.
    name: "comments-waiting",
    localEveryMs: 60_000,
    budgetMs: 20_000,
    run: async ({ deps, deadline, leaseMs, log }) => {
      if (!(await queueCommentsWaitingNotice(deps))) return;
      log("[comments] the owner's comments-waiting email queued");
      await deliverQueuedMail(deps, { concurrency: deps.env.SMTP_MAX_CONNECTIONS, stopClaimingAt: deadline, ...(leaseMs && { leaseMs }) });
    },
  },
  {
    // A backup when the last is a week old (run in the Background Function on Netlify, in process
    // under `npm start`); the newest 8 are kept. A replayed or doubled tick starts nothing twice.
    name: "weekly-backup",
    localEveryMs: 60 * 60 * 1000,
    budgetMs: 20_000,
    run: async ({ deps, log, waitUntil }) => {
      const started = await backupIfDue({ ...deps, startJob: (job) => deps.startJob(job, { waitUntil }) });
      if (started) log(`[backups] weekly backup ${String(started.id)} started`);
    },
  },
] as const satisfies readonly BackgroundJob[];

export type BackgroundJobName = (typeof backgroundJobs)[number]["name"];

/** One run of `job` on `app`: its deadline from the app's clock, and every call it started awaited. */
export async function runBackgroundJob(
  app: Pick<App, "deps">,
  job: BackgroundJob,
  options: { log: (line: string) => void; leaseMs?: number | undefined },
): Promise<void> {
  const calls: Promise<unknown>[] = [];
  const deadline = new Date(app.deps.now().getTime() + job.budgetMs);
  try {
    await job.run({ deps: app.deps, deadline, leaseMs: options.leaseMs, log: options.log, waitUntil: (call) => calls.push(call) });
  } finally {
    await Promise.all(calls);
  }
}

/** A Scheduled Function's whole body: boot the app, run the job's row once, close the app. */
export async function runScheduledFunction(name: BackgroundJobName): Promise<void> {
  const job = backgroundJobs.find((row) => row.name === name) as BackgroundJob;
  const app = await bootApp();
  try {
    await runBackgroundJob(app, job, { log: (line) => console.log(line) });
  } finally {
    await app.close();
  }
}

/** How long a Background Function claims webhook deliveries after its work (a request's run gets as long after its answer). */
const webhookRunBudgetMs = 10_000;

/** A newsletter Background Function runs for at most 15 minutes: stop claiming after 12, so the last batches end in time. */
export const newsletterBackgroundBudgetMs = 12 * 60_000;

/**
 * The Background Functions' work, by function: each is started only by the shared signed start
 * (src/adapters/background-run.ts), verified with the app's clock and spent once.
 */
const backgroundFunctions = {
  /**
   * Started by a send (`POST /api/newsletter/sends`, through `kickSends`): works on every send with
   * work due for 12 minutes and, if work is still due then, starts the next run itself. A replay
   * would send nothing twice anyway (rows are leased, settled rows are never sent again); the
   * watchdog takes up what a lost or failed run leaves behind.
   */
  "newsletter-send-background": {
    tag: "newsletter",
    run: async (app: App) => {
      const { runs, continued } = await runBackgroundSends(app.deps, {
        budgetMs: newsletterBackgroundBudgetMs,
        concurrency: app.deps.env.SMTP_MAX_CONNECTIONS,
        kick: app.deps.kickSends,
      });
      for (const [sendId, run] of runs) {
        console.log(
          `[newsletter] send ${String(sendId)}: ${String(run.sent)} sent, ${String(run.failed)} failed, ${String(run.skipped)} skipped${run.finished ? ", done" : ""}`,
        );
      }
      if (continued) console.log("[newsletter] work left after this run's budget: started the next run");
      // A finished send's `newsletter.sent` goes now, not at the watchdog's next minute (issue 46 point 4).
      if ([...runs.values()].some((run) => run.finished)) {
        await deliverWebhooks(app.deps, { stopClaimingAt: new Date(app.deps.now().getTime() + webhookRunBudgetMs) });
      }
      return true;
    },
  },
  /** Imports, backups and restores, where they have 15 minutes (`POST /api/imports`, `/api/backups`, the weekly backup). */
  "moving-background": {
    tag: "moving",
    run: async (app: App, jobName: string) => {
      const job = parseMovingJob(jobName);
      if (!job) return false;
      await runJob(app.deps, job);
      console.log(`[moving] ${job.kind} ${String(job.id)} finished`);
      return true;
    },
  },
} satisfies Record<string, { tag: string; run: (app: App, job: string) => Promise<boolean> }>;

export type BackgroundFunctionName = keyof typeof backgroundFunctions;

/**
 * A Background Function's whole body: anyone's call that is not a fresh signed start for this
 * function, or a replay of one, does nothing.
 */
export async function runBackgroundFunction(name: BackgroundFunctionName, request: Request): Promise<void> {
  const { tag, run } = backgroundFunctions[name];
  const app = await bootApp();
  try {
    const signed = request.method === "POST" ? verifyRunRequest(app.deps.signer, request.headers.get(runRequestHeader), app.deps.now(), name) : null;
    if (!signed) {
      console.warn(`[${tag}] background run refused: not a signed run request`);
      return;
    }
    if (!(await spendRunRequest(app.deps.db, signed, app.deps.now()))) {
      console.warn(`[${tag}] background run refused: this start was already used`);
      return;
    }
    if (!(await run(app, signed.job))) console.warn(`[${tag}] background run refused: it names no job of this function`);
  } finally {
    await app.close();
  }
}
