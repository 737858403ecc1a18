/**
 * Audiences at 100,000 subscribers (issue 42 point 8), on PostgreSQL: a scratch database
 * (`nf_segments_bench` unless BENCH_SEGMENTS_DB says otherwise) migrated and seeded by SQL with the
 * subscribers, 10 reader topics and 30 subscriber tags (`seedTopicsAndTags`), then the real API in
 * process (the production `pg` driver):
 * - `POST /api/newsletter/audience` for a 3-term expression, `runs` times: median and p95;
 * - a send to that segment: from `POST /api/newsletter/sends` to its recipients fixed (`queued`),
 *   and whether the total equals the count.
 * Nothing is sent (no worker runs).
 *   node tests/bench/segments.ts [adminDatabaseUrl] [subscribers]
 */
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { startDueSends } from "../../src/core/newsletter/newsletter-start.ts";
import type { NewsletterSend } from "../../src/core/newsletter/newsletter.schema.ts";
import type { Post } from "../../src/core/posts/post.schema.ts";
import { multipartBody } from "../support/multipart.ts";
import { createTestApp } from "../support/test-app.ts";
import { freshSeededDatabase, seedTopicsAndTags } from "./bulk-seed.ts";

export interface SegmentFigures {
  subscribers: number;
  expression: string;
  count: number;
  runs: number;
  countMedianMs: number;
  countP95Ms: number;
  sendFixedSeconds: number;
  sendAnsweredMs: number;
  total: number;
  seedSeconds: number;
}

/** Three terms, one of each kind of probe: a topic (or everything), a tag, NOT a tag. */
export const benchExpression = "follows topic-3 OR tag tag-7, NOT tag tag-12";

const log = (message: string) => console.log(`[segments ${new Date().toISOString().slice(11, 19)}] ${message}`);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export async function measureSegments(adminUrl: string, count: number, name = "nf_segments_bench", runs = 100): Promise<SegmentFigures> {
  const started = performance.now();
  const { databaseUrl } = await freshSeededDatabase(adminUrl, name, count);
  await seedTopicsAndTags(databaseUrl, { topics: 10, tags: 30 });
  const seedSeconds = (performance.now() - started) / 1000;
  log(`${count.toLocaleString("en-US")} subscribers, 10 topics and 30 tags seeded in ${seedSeconds.toFixed(1)} s`);
  const db = await connectDatabase(databaseUrl);
  const app = await createTestApp({ db });
  try {
    const headers = { ...(await app.adminHeaders()), "content-type": "application/json" };
    const audience = async () => {
      const response = await app.call("/api/newsletter/audience", { method: "POST", headers, body: JSON.stringify({ segment: benchExpression }) });
      if (response.status !== 200) throw new Error(`the count answered ${String(response.status)}: ${await response.text()}`);
      return ((await response.json()) as { count: number }).count;
    };
    // Warm: the first call plans the statements.
    const counted = await audience();
    const times: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const at = performance.now();
      await audience();
      times.push(performance.now() - at);
    }
    times.sort((a, b) => a - b);
    const countMedianMs = percentile(times, 50);
    const countP95Ms = percentile(times, 95);
    log(`count ${String(counted)}: median ${countMedianMs.toFixed(1)} ms, p95 ${countP95Ms.toFixed(1)} ms over ${String(runs)} runs`);

    const form = await multipartBody({ content: "<p>This week.</p>", title: "Bench segment send", published: "true" });
    const post = (await (
      await app.call("/api/blog-posts", { method: "POST", headers: { ...headers, "content-type": form.contentType }, body: form.body })
    ).json()) as Post;
    const sendStarted = performance.now();
    const response = await app.call("/api/newsletter/sends", {
      method: "POST",
      headers,
      body: JSON.stringify({ postId: post.id, segment: benchExpression }),
    });
    let send = (await response.json()) as NewsletterSend;
    const sendAnsweredMs = performance.now() - sendStarted;
    if (response.status !== 202) throw new Error(`the send answered ${String(response.status)}: ${JSON.stringify(send)}`);
    while (send.status === "preparing") {
      await startDueSends(app.deps, { until: new Date(Date.now() + 20_000) });
      send = (await (await app.call(`/api/newsletter/sends/${String(send.id)}`, { headers })).json()) as NewsletterSend;
    }
    const sendFixedSeconds = (performance.now() - sendStarted) / 1000;
    log(`send answered in ${sendAnsweredMs.toFixed(0)} ms; ${send.status} with ${String(send.total)} fixed after ${sendFixedSeconds.toFixed(2)} s`);
    return {
      subscribers: count,
      expression: benchExpression,
      count: counted,
      runs,
      countMedianMs,
      countP95Ms,
      sendFixedSeconds,
      sendAnsweredMs,
      total: send.total,
      seedSeconds,
    };
  } finally {
    await app.close();
    await db.close();
  }
}

if (import.meta.main) {
  const adminUrl = process.argv[2] ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const count = Number(process.argv[3] ?? 100_000);
  const name = process.env.BENCH_SEGMENTS_DB ?? "nf_segments_bench";
  console.log(JSON.stringify(await measureSegments(adminUrl, count, name), null, 2));
}
