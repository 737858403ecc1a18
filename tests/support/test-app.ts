import type { ApiHandler } from "../../src/api/api-handler.ts";
import { createApp } from "../../src/app/create-app.ts";
import type { AppDeps } from "../../src/app/app-deps.ts";
import { dkimSigning, readServerEnv } from "../../src/config/server-env.ts";
import { createSession } from "../../src/core/auth/sessions.ts";
import { sessionCookie } from "../../src/api/session-cookie.ts";
import { createMigratedDatabase } from "./test-databases.ts";
import { startSmtpSink, type SmtpSink, type SmtpSinkOptions } from "./smtp-sink.ts";
import { startTestFileStore } from "./test-file-store.ts";
import { smtpMailer } from "../../src/adapters/smtp-mailer.ts";
import { systemClock } from "../../src/core/shared/clock.ts";
import { deliverQueuedMail } from "../../src/core/mail/outbox-delivery.ts";
import type { OutboxRun } from "../../src/core/mail/outbox.ts";

export interface TestApp {
  deps: AppDeps;
  /** Calls the API as Netlify would: a web `Request` in, a `Response` out, no server. */
  call(path: string, init?: RequestInit): Promise<Response>;
  handler: ApiHandler;
  /** How many rebuilds the calls so far have asked for. */
  rebuilds: { count: number };
  /** How many newsletter runs the calls so far have started (`kickSends`: production's Background Function). */
  kicks: { count: number };
  /** The real SMTP server the app's mail goes to: what each address received. */
  mail: SmtpSink;
  /**
   * One run over the outbox, as the timer and the Scheduled Function do (after moving a fake clock
   * past a retry's time, say). A call's own run, started after its answer, is awaited by `handler`.
   */
  deliverMail(): Promise<OutboxRun>;
  /** Headers of a logged-in admin on the site's own origin (for admin and state-changing calls). */
  adminHeaders(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export const testOrigin = "http://localhost:8888";
export const testAdminPassword = "test admin password";
export const testMailFrom = "No Filter <hello@nofilter.test>";

/**
 * The real API, put together by `createApp` as in production, over an embedded, migrated database
 * (or the one in `overrides.db`, which the caller owns) and a real Blobs server on a temp folder.
 * `overrides.now` is the clock (a fake one lets a test move time on); `overrides.smtp` makes the
 * sink refuse some recipients; `overrides.env` adds variables (a SESSION_SECRET to rotate).
 */
export async function createTestApp(
  overrides: Partial<Pick<AppDeps, "db" | "now" | "clock" | "snsFetch" | "checkPage">> & {
    smtp?: SmtpSinkOptions;
    env?: Record<string, string>;
  } = {},
): Promise<TestApp> {
  const ownsDb = !overrides.db;
  const db = overrides.db ?? (await createMigratedDatabase());
  const rebuilds = { count: 0 };
  const kicks = { count: 0 };
  const store = await startTestFileStore();
  const mail = await startSmtpSink(overrides.smtp);
  const env = readServerEnv({
    SITE_URL: testOrigin,
    DATABASE_URL: "postgres://unused@localhost/unused",
    ADMIN_USERNAME: "admin",
    ADMIN_PASSWORD: testAdminPassword,
    ...overrides.env,
  });
  const { deps, handleApi } = createApp({
    env,
    db,
    files: store.files,
    mail: smtpMailer(mail.url, testMailFrom, { maxConnections: 1, dkim: dkimSigning(env) }),
    rebuild: () => {
      rebuilds.count += 1;
    },
    kickSends: () => {
      kicks.count += 1;
    },
    ...(overrides.clock ? { clock: overrides.clock } : overrides.now && { clock: { now: overrides.now, sleep: systemClock.sleep } }),
    checkAnswers: true,
    ...(overrides.snsFetch && { snsFetch: overrides.snsFetch }),
    // The test origin serves nothing: every post's page counts as live unless the test says otherwise.
    checkPage: overrides.checkPage ?? (() => Promise.resolve({ live: true, answer: "200" })),
  });
  // As on Netlify, work a call starts after its answer (a rebuild, the outbox's delivery) is handed
  // to `waitUntil`; here the call returns once that work is done too, so a test reads the mail a call
  // sent right after it (an outage leaves it queued, for `deliverMail` to retry).
  const handler: ApiHandler = async (request, client) => {
    const after: Promise<unknown>[] = [];
    const response = await handleApi(request, { waitUntil: (promise) => after.push(promise), ...client });
    await Promise.all(after);
    return response;
  };
  return {
    deps,
    handler,
    deliverMail: () => deliverQueuedMail(deps, { concurrency: 1 }),
    rebuilds,
    kicks,
    mail,
    async adminHeaders() {
      const { token } = await createSession(deps);
      const cookie = (sessionCookie(new Request(testOrigin), token).split(";")[0] ?? "").trim();
      return { cookie, origin: testOrigin };
    },
    call: (path, init) => handler(new Request(new URL(path, testOrigin), init), { ip: "203.0.113.7" }),
    async close() {
      await deps.mail.close();
      if (ownsDb) await db.close();
      await store.stop();
      await mail.stop();
    },
  };
}
