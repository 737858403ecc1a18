/**
 * A send to 1,000,000 subscribers starts in seconds (issue 39 point 1, decision 0064), on
 * PostgreSQL: a scratch database (`nf_send_prepare_bench` unless BENCH_PREPARE_DB says otherwise)
 * migrated and seeded by SQL with `count` active subscribers, then the real API in process (the
 * production `pg` driver with its 15 s statement timeout) asked to send a published post:
 * - the start's answer time (`POST /api/newsletter/sends`, which fixes batches for up to 2 s);
 * - the longest single transaction while preparing (each batch is one);
 * - the whole preparing time, from the request to `queued`, the rest done by the timers' step
 *   (`startDueSends`, as the mail watchdog runs it) in 20 s runs;
 * - what the two per-row foreign-key checks cost a batch: the same 20,000 rows inserted into
 *   `newsletter_recipients` and into a copy of it without its foreign keys;
 * - the old way as the anchor: every recipient in one INSERT … SELECT (statement timeout off).
 * Nothing is sent (no worker runs).
 *   node tests/bench/send-prepare.ts [adminDatabaseUrl] [subscribers]
 */
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import type { SqlExecutor } from "../../src/core/db/sql-executor.ts";
import { prepareBatchSize } from "../../src/core/newsletter/newsletter-prepare.ts";
import { startDueSends } from "../../src/core/newsletter/newsletter-start.ts";
import type { Post } from "../../src/core/posts/post.schema.ts";
import type { NewsletterSend } from "../../src/core/newsletter/newsletter.schema.ts";
import { multipartBody } from "../support/multipart.ts";
import { createTestApp } from "../support/test-app.ts";
import { freshSeededDatabase } from "./bulk-seed.ts";

export interface SendPrepareFigures {
  subscribers: number;
  seedSeconds: number;
  load: [number, number];
  answerMs: number;
  answeredStatus: string;
  answeredTotal: number;
  answeredPrepared: number;
  longestTransactionMs: number;
  transactions: number;
  preparingSeconds: number;
  total: number;
  batchWithForeignKeysMs: number;
  batchWithoutForeignKeysMs: number;
  oneStatementSeconds: number;
}

const log = (message: string) => console.log(`[send-prepare ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function load(): Promise<number> {
  const { loadavg } = await import("node:os");
  return Number((loadavg()[0] ?? 0).toFixed(2));
}

/** The database, with every transaction timed (the batches are the transactions while preparing). */
function timedTransactions(db: SqlExecutor, times: number[]): SqlExecutor {
  return {
    exec: (sql) => db.exec(sql),
    query: (sql, params) => db.query(sql, params),
    close: () => db.close(),
    transaction: async (fn) => {
      const started = performance.now();
      try {
        return await db.transaction(fn);
      } finally {
        times.push(performance.now() - started);
      }
    },
  };
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

export async function measureSendPrepare(adminUrl: string, count: number, name = "nf_send_prepare_bench"): Promise<SendPrepareFigures> {
  const { databaseUrl, seedSeconds } = await freshSeededDatabase(adminUrl, name, count);
  const setup = await connectDatabase(databaseUrl, { timeouts: { statementMs: 0 } });
  await setup.exec("VACUUM ANALYZE subscribers");
  log(`${count.toLocaleString("en-US")} subscribers seeded in ${seedSeconds.toFixed(1)} s`);

  const times: number[] = [];
  const db = timedTransactions(await connectDatabase(databaseUrl), times);
  const app = await createTestApp({ db });
  const figures: Partial<SendPrepareFigures> = { subscribers: count, seedSeconds };
  const loadBefore = await load();
  try {
    const headers = await app.adminHeaders();
    const { body, contentType } = await multipartBody({ content: "<p>This week.</p>", title: "Bench send", published: "true" });
    const post = (await (
      await app.call("/api/blog-posts", { method: "POST", headers: { ...headers, "content-type": contentType }, body })
    ).json()) as Post;
    times.length = 0;
    const started = performance.now();
    const response = await app.call("/api/newsletter/sends", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ postId: post.id }),
    });
    const answered = (await response.json()) as NewsletterSend;
    figures.answerMs = performance.now() - started;
    if (response.status !== 202) throw new Error(`the start answered ${String(response.status)}: ${JSON.stringify(answered)}`);
    Object.assign(figures, { answeredStatus: answered.status, answeredTotal: answered.total, answeredPrepared: answered.prepared });
    log(
      `start answered in ${figures.answerMs.toFixed(0)} ms: ${answered.status}, total ${String(answered.total)}, ${String(answered.prepared)} so far`,
    );

    // The timers' step, as the watchdog runs it, until the send is queued.
    let status = answered;
    while (status.status === "preparing") {
      await startDueSends(app.deps, { until: new Date(Date.now() + 20_000) });
      status = (await (await app.call(`/api/newsletter/sends/${String(answered.id)}`, { headers })).json()) as NewsletterSend;
      log(`${status.status}: ${String(status.prepared)} fixed, total ${String(status.total)}`);
    }
    figures.preparingSeconds = (performance.now() - started) / 1000;
    figures.total = status.total;
    figures.longestTransactionMs = Math.max(...times);
    figures.transactions = times.length;
    log(
      `prepared in ${figures.preparingSeconds.toFixed(1)} s: total ${String(status.total)}, ${String(times.length)} transactions, the longest ${figures.longestTransactionMs.toFixed(0)} ms`,
    );

    // The foreign keys' share of a batch: the same 20,000 rows, into the table and into a copy without them.
    await setup.exec("CREATE TABLE bench_recipients_nofk (LIKE newsletter_recipients INCLUDING ALL)");
    const { rows: sends } = await setup.query<{ id: number }>(
      "INSERT INTO newsletter_sends (post_id, status, subject, html, text, created_at) VALUES ($1, 'cancelled', '', '', '', now()) RETURNING id",
      [post.id],
    );
    const other = (sends[0] as { id: number }).id;
    const withKeys: number[] = [];
    const withoutKeys: number[] = [];
    for (let i = 0; i < 5; i++) {
      const from = i * prepareBatchSize;
      const insert = (table: string) =>
        setup.query(
          `INSERT INTO ${table} (send_id, subscriber_id) SELECT $1, id FROM subscribers WHERE id > $2 AND status = 'active' ORDER BY id LIMIT $3`,
          [other, from, prepareBatchSize],
        );
      withKeys.push((await timed(() => insert("newsletter_recipients")))[1]);
      withoutKeys.push((await timed(() => insert("bench_recipients_nofk")))[1]);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    figures.batchWithForeignKeysMs = median(withKeys);
    figures.batchWithoutForeignKeysMs = median(withoutKeys);
    log(
      `a batch of ${prepareBatchSize.toLocaleString("en-US")}: ${figures.batchWithForeignKeysMs.toFixed(0)} ms with the foreign keys, ${figures.batchWithoutForeignKeysMs.toFixed(0)} ms without (median of 5)`,
    );
    await setup.exec("DROP TABLE bench_recipients_nofk");
    await setup.query("DELETE FROM newsletter_recipients WHERE send_id = $1", [other]);

    // The anchor: the old way, every recipient in one statement in one transaction.
    const [, oldMs] = await timed(() =>
      setup.transaction((tx) =>
        tx.query("INSERT INTO newsletter_recipients (send_id, subscriber_id) SELECT $1, id FROM subscribers WHERE status = 'active' ORDER BY id", [
          other,
        ]),
      ),
    );
    figures.oneStatementSeconds = oldMs / 1000;
    log(`the old way, one INSERT … SELECT of every recipient: ${figures.oneStatementSeconds.toFixed(1)} s`);
    figures.load = [loadBefore, await load()];
    return figures as SendPrepareFigures;
  } finally {
    await app.close();
    await db.close();
    await setup.close();
  }
}

if (import.meta.main) {
  const adminUrl = process.argv[2] ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const count = Number(process.argv[3] ?? 1_000_000);
  const name = process.env.BENCH_PREPARE_DB ?? "nf_send_prepare_bench";
  log(`load ${String(await load())}`);
  console.log(JSON.stringify(await measureSendPrepare(adminUrl, count, name), null, 2));
}
