/**
 * Provider events at ≥ 500 a second for a send of 100,000 (issue 39 point 2, decision 0066), on
 * PostgreSQL: a scratch database (`nf_send_counters_bench` unless BENCH_EVENTS_DB says otherwise)
 * migrated and seeded by SQL with `count` active subscribers and a running send that reached each
 * of them (every recipient `sent` with its Message-ID), then the real API in process (the
 * production `pg` driver and pool) fed one Mailgun-signed webhook per recipient with `concurrency`
 * requests at once — mostly `delivered`, 2 % hard bounces, 1 % soft bounces, 0.1 % complaints, so
 * the send stays under its pause thresholds and the pause rule runs for every event — and then
 * 1,000 of them again (Mailgun's retries: the same token). Measured:
 * - events a second through the handler, first pass and replays;
 * - whether the send's figures equal the events sent (and a recount of its rows and events);
 * - the send status answer (`GET /api/newsletter/sends/{id}`), median and worst of 50, beside the
 *   anchor: the same figures counted from every row as the answer did before the counters.
 *   node tests/bench/send-events.ts [adminDatabaseUrl] [recipients] [concurrency]
 */
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import type { NewsletterSend } from "../../src/core/newsletter/newsletter.schema.ts";
import { makeProviderKeys, mailgunRequest } from "../support/email-event-signing.ts";
import { createTestApp } from "../support/test-app.ts";
import { freshSeededDatabase } from "./bulk-seed.ts";

export interface SendEventsFigures {
  recipients: number;
  concurrency: number;
  load: [number, number];
  events: number;
  eventsPerSecond: number;
  replays: number;
  replaysPerSecond: number;
  expected: { bounced: number; softBounced: number; complained: number; delivered: number };
  answered: { bounced: number; softBounced: number; complained: number; delivered: number; status: string };
  equalsRecount: boolean;
  statusMedianMs: number;
  statusWorstMs: number;
  recountMedianMs: number;
}

const log = (message: string) => console.log(`[send-events ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function load(): Promise<number> {
  const { loadavg } = await import("node:os");
  return Number((loadavg()[0] ?? 0).toFixed(2));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** What the n-th recipient's event is: the same every run. */
function kindOf(n: number): "hard" | "soft" | "complaint" | "delivered" {
  if (n % 50 === 7) return "hard";
  if (n % 100 === 13) return "soft";
  if (n % 1000 === 21) return "complaint";
  return "delivered";
}

/** Runs `task(0…count-1)` with at most `concurrency` at once. */
async function pool(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

export async function measureSendEvents(
  adminUrl: string,
  count: number,
  concurrency: number,
  name = "nf_send_counters_bench",
): Promise<SendEventsFigures> {
  const { databaseUrl } = await freshSeededDatabase(adminUrl, name, count);
  const setup = await connectDatabase(databaseUrl, { timeouts: { statementMs: 0 } });
  const { rows: posts } = await setup.query<{ id: number }>(
    "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Bench', '<p>Hi.</p>', 'Hi', true, now()) RETURNING id",
  );
  const { rows: sends } = await setup.query<{ id: number }>(
    "INSERT INTO newsletter_sends (post_id, status, subject, html, text, created_at, started_at) VALUES ($1, 'sending', 'Bench', '', '', now(), now()) RETURNING id",
    [posts[0]?.id],
  );
  const sendId = (sends[0] as { id: number }).id;
  // Every recipient reached, its Message-ID the one its event names (n is its subscriber's number).
  await setup.query(
    `INSERT INTO newsletter_recipients (send_id, subscriber_id, status, sent_at, message_id)
     SELECT $1, id, 'sent', now(), '<b' || id || '@bench.example>' FROM subscribers ORDER BY id`,
    [sendId],
  );
  await setup.exec("VACUUM ANALYZE");
  const { rows: people } = await setup.query<{ id: number; email: string }>("SELECT id, email FROM subscribers ORDER BY id");
  log(`${count.toLocaleString("en-US")} recipients sent`);

  const keys = await makeProviderKeys();
  const db = await connectDatabase(databaseUrl);
  const app = await createTestApp({ db, env: keys.env, snsFetch: keys.snsFetch });
  const figures: Partial<SendEventsFigures> = { recipients: count, concurrency };
  const loadBefore = await load();
  try {
    const tokens = people.map((_, n) => `bench-${String(n).padStart(7, "0")}-${"t".repeat(30)}`);
    const post = async (n: number) => {
      const person = people[n] as { id: number; email: string };
      const kind = kindOf(n);
      const request = mailgunRequest(
        keys,
        {
          id: `ev-${String(n)}`,
          event: kind === "complaint" ? "complained" : kind === "delivered" ? "delivered" : "failed",
          ...(kind === "hard" && { severity: "permanent" }),
          ...(kind === "soft" && { severity: "temporary" }),
          recipient: person.email,
          "delivery-status": { message: "550 5.1.1 No such user", code: 550 },
          message: { headers: { "message-id": `b${String(person.id)}@bench.example` } },
        },
        new Date(),
        tokens[n],
      );
      const response = await app.call("/api/email-events/mailgun", {
        method: "POST",
        headers: { ...request.headers, "content-type": "application/json" },
        body: request.body,
      });
      if (response.status !== 200 && response.status !== 204)
        throw new Error(`event ${String(n)}: ${String(response.status)} ${await response.text()}`);
    };
    let started = performance.now();
    let done = 0;
    await pool(count, concurrency, async (n) => {
      await post(n);
      if (++done % 10_000 === 0) log(`${done.toLocaleString("en-US")} events, ${(done / ((performance.now() - started) / 1000)).toFixed(0)}/s`);
    });
    const seconds = (performance.now() - started) / 1000;
    figures.events = count;
    figures.eventsPerSecond = count / seconds;
    log(`${count.toLocaleString("en-US")} events in ${seconds.toFixed(1)} s: ${figures.eventsPerSecond.toFixed(0)}/s`);

    const replays = Math.min(1000, count);
    started = performance.now();
    await pool(replays, concurrency, (i) => post(Math.floor((i * count) / replays)));
    figures.replays = replays;
    figures.replaysPerSecond = replays / ((performance.now() - started) / 1000);
    log(`${String(replays)} replays: ${figures.replaysPerSecond.toFixed(0)}/s`);

    const kinds = people.map((_, n) => kindOf(n));
    const hard = kinds.filter((kind) => kind === "hard").length;
    figures.expected = {
      bounced: hard,
      softBounced: kinds.filter((kind) => kind === "soft").length,
      complained: kinds.filter((kind) => kind === "complaint").length,
      delivered: count - hard,
    };
    const headers = await app.adminHeaders();
    const statusTimes: number[] = [];
    let answer: NewsletterSend | undefined;
    for (let i = 0; i < 50; i++) {
      const at = performance.now();
      answer = (await (await app.call(`/api/newsletter/sends/${String(sendId)}`, { headers })).json()) as NewsletterSend;
      statusTimes.push(performance.now() - at);
    }
    const sent = answer as NewsletterSend;
    figures.answered = {
      bounced: sent.bounced,
      softBounced: sent.softBounced,
      complained: sent.complained,
      delivered: sent.delivered,
      status: sent.status,
    };
    figures.statusMedianMs = median(statusTimes);
    figures.statusWorstMs = Math.max(...statusTimes);
    log(
      `status answer: median ${figures.statusMedianMs.toFixed(1)} ms, worst ${figures.statusWorstMs.toFixed(1)} ms: ${JSON.stringify(figures.answered)}`,
    );

    // The anchor: the figures counted from every row, as the answer did before migration 0037.
    const recountTimes: number[] = [];
    let recounted: Record<string, number> = {};
    for (let i = 0; i < 5; i++) {
      const at = performance.now();
      const { rows } = await setup.query<Record<string, number>>(
        `SELECT (SELECT count(*) FROM newsletter_recipients WHERE send_id = $1 AND status = 'pending')::int AS pending,
                (SELECT count(*) FROM newsletter_recipients WHERE send_id = $1 AND status = 'sent')::int AS sent,
                (SELECT count(*) FROM newsletter_recipients WHERE send_id = $1 AND status = 'failed')::int AS failed,
                (SELECT count(*) FROM newsletter_recipients WHERE send_id = $1 AND status = 'skipped')::int AS skipped,
                (count(DISTINCT coalesce(e.message_ref, e.event_id)) FILTER (WHERE e.type = 'hard_bounce'))::int AS bounced,
                (count(DISTINCT coalesce(e.message_ref, e.event_id)) FILTER (WHERE e.type = 'hard_bounce' AND e.provider <> 'smtp'))::int AS bounced_after,
                (count(DISTINCT coalesce(e.message_ref, e.event_id)) FILTER (WHERE e.type = 'soft_bounce'))::int AS soft_bounced,
                (count(DISTINCT coalesce(e.message_ref, e.event_id)) FILTER (WHERE e.type = 'complaint'))::int AS complained
           FROM email_events e WHERE e.send_id = $1`,
        [sendId],
      );
      recountTimes.push(performance.now() - at);
      recounted = rows[0] ?? {};
    }
    figures.recountMedianMs = median(recountTimes);
    const { rows: kept } = await setup.query<Record<string, number>>(
      `SELECT count_pending AS pending, count_sent AS sent, count_failed AS failed, count_skipped AS skipped, count_bounced AS bounced,
              count_bounced_after AS bounced_after, count_soft_bounced AS soft_bounced, count_complained AS complained
         FROM newsletter_sends WHERE id = $1`,
      [sendId],
    );
    figures.equalsRecount = JSON.stringify(kept[0]) === JSON.stringify(recounted);
    log(
      `the same figures recounted from every row: median ${figures.recountMedianMs.toFixed(0)} ms; counters equal the recount: ${String(figures.equalsRecount)}`,
    );
    figures.load = [loadBefore, await load()];
    return figures as SendEventsFigures;
  } finally {
    await app.close();
    await db.close();
    await setup.close();
    await keys.close();
  }
}

if (import.meta.main) {
  const adminUrl = process.argv[2] ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const count = Number(process.argv[3] ?? 100_000);
  const concurrency = Number(process.argv[4] ?? 16);
  const name = process.env.BENCH_EVENTS_DB ?? "nf_send_counters_bench";
  log(`load ${String(await load())}`);
  console.log(JSON.stringify(await measureSendEvents(adminUrl, count, concurrency, name), null, 2));
}
