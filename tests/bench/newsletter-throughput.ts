/**
 * The newsletter worker's throughput, without the rest of `npm start`: N recipients (default
 * 10,000) sent by one runSendWorker through a pooled nodemailer transport into a local SMTP server
 * that only counts (and collects Message-IDs). PGlite in-process by default; DB_URL=postgres://…
 * for a PostgreSQL server. PROFILE=1 adds the time spent per statement and in SMTP hand-overs.
 *   node tests/bench/newsletter-throughput.ts
 * `npm run bench` measures the same under `npm start`, with a kill -9: tests/bench/newsletter-send.ts.
 */
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { createPgliteExecutor } from "../../src/adapters/pglite-executor.ts";
import { smtpMailer } from "../../src/adapters/smtp-mailer.ts";
import { createApp } from "../../src/app/create-app.ts";
import { readServerEnv } from "../../src/config/server-env.ts";
import { applyMigrations, readMigrations } from "../../src/core/db/migrations.ts";
import type { FileStore } from "../../src/core/files/file-store.ts";
import { sendStatus, startSend } from "../../src/core/newsletter/newsletter-sends.ts";
import { runSendWorker } from "../../src/core/newsletter/newsletter-worker.ts";
import { startSmtpSink } from "../support/smtp-sink.ts";

const recipients = Number(process.env.N ?? 10_000);
const pool = Number(process.env.POOL ?? 5);
const batchSize = Number(process.env.BATCH ?? 100);

const sink = await startSmtpSink({ keep: "counts" });
const smtpUrl = sink.url;

const db = process.env.DB_URL ? await connectDatabase(process.env.DB_URL, { driver: "pg" }) : await createPgliteExecutor();
await applyMigrations(db, await readMigrations());
await db.exec("DELETE FROM newsletter_sends; DELETE FROM subscribers; DELETE FROM posts");
const env = readServerEnv({
  SITE_URL: "http://localhost:8888",
  DATABASE_URL: "postgres://unused@localhost/unused",
  ADMIN_USERNAME: "admin",
  ADMIN_PASSWORD: "bench password, not used",
});
// The worker touches no file: the store is never called.
const { deps } = createApp({
  env,
  db,
  files: {} as FileStore,
  mail: smtpMailer(smtpUrl, "No Filter <hello@nofilter.test>", { maxConnections: pool }),
  // No site runs here: the post's page counts as live, so the send starts at once (what is measured is the sending).
  checkPage: () => Promise.resolve({ live: true, answer: "200" }),
});
await db.query(
  "INSERT INTO subscribers (email, status, source) SELECT 'reader' || g || '@example.com', 'active', 'import' FROM generate_series(1, $1::int) g",
  [recipients],
);
const { rows } = await db.query<{ id: number }>(
  "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Bench', $1, 'The short of it', true, now()) RETURNING id",
  [`<p>${"Founders talk about cash. ".repeat(200)}</p>`],
);

const spent = new Map<string, number>();
const timed = <T>(key: string, work: Promise<T>) => {
  const start = performance.now();
  return work.finally(() => spent.set(key, (spent.get(key) ?? 0) + performance.now() - start));
};
if (process.env.PROFILE) {
  const query = deps.db.query.bind(deps.db);
  deps.db.query = (sql: string, params?: readonly unknown[]) => timed(sql.replace(/\s+/g, " ").slice(0, 40), query(sql, params));
  const send = deps.mail.send.bind(deps.mail);
  deps.mail.send = (message) => timed("smtp hand-over", send(message));
}

const started = performance.now();
const send = await startSend(deps, (rows[0] as { id: number }).id);
const fixed = performance.now();
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const run = await runSendWorker(deps, send.id, { concurrency: pool, batchSize });
const done = performance.now();
clearInterval(sampler);
console.log(
  JSON.stringify(
    {
      database: process.env.DB_URL ? "postgresql (pg)" : "pglite",
      recipients,
      pool,
      batchSize,
      startMs: Math.round(fixed - started),
      sendMs: Math.round(done - fixed),
      messagesPerSecond: Math.round((recipients / (done - fixed)) * 1000),
      received: sink.counts().received,
      distinctMessageIds: sink.counts().distinct,
      run,
      status: await sendStatus(deps, send.id),
      peakRssMB: Math.round(peakRss / 1e6),
      ...(process.env.PROFILE && { spentMs: Object.fromEntries([...spent].map(([key, ms]) => [key, Math.round(ms)])) }),
    },
    null,
    2,
  ),
);
await deps.mail.close();
await db.close();
await sink.stop();
