/**
 * Audiences at 100,000 subscribers (issue 42 point 8), on PostgreSQL: a scratch database
 * (`nf_segments_bench` unless BENCH_SEGMENTS_DB says otherwise) migrated and seeded by SQL with the
 * subscribers, 10 reader topics and 30 subscriber tags (`seedTopicsAndTags`), then the real API in
 * process (the production `pg` driver):
 * - `POST /api/newsletter/audience` for a 3-term expression, `runs` times: median and p95; its
 *   anchor, run in turn with it, is the same call for `everything` (no term to probe);
 * - the preference page's POST (the form the "Choose what you get" page posts, 303), `runs` times,
 *   each for another reader, with different topics each time: median and p95; its anchor, in turn
 *   with it, is the same reader's `GET /api/preferences` (the same token check, nothing written);
 * - a send to that segment: from `POST /api/newsletter/sends` to its recipients fixed (`queued`),
 *   and whether the total equals the count; its anchor is a send of the same post to everyone.
 * Anchors are measured in the same run, on the same data, so a figure reads against the machine's
 * load at the time. Nothing is sent (no worker runs).
 *   node tests/bench/segments.ts [adminDatabaseUrl] [subscribers]
 */
import { readFile } from "node:fs/promises";
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { startDueSends } from "../../src/core/newsletter/newsletter-start.ts";
import type { NewsletterSend } from "../../src/core/newsletter/newsletter.schema.ts";
import type { Post } from "../../src/core/posts/post.schema.ts";
import { signPreferencesToken } from "../../src/core/mail/subscription-tokens.ts";
import { multipartBody } from "../support/multipart.ts";
import { createTestApp, testOrigin } from "../support/test-app.ts";
import { freshSeededDatabase, seedTopicsAndTags } from "./bulk-seed.ts";

export interface SegmentFigures {
  subscribers: number;
  expression: string;
  count: number;
  runs: number;
  countMedianMs: number;
  countP95Ms: number;
  /** The anchor: the count of `everything`, run in turn with the expression's. */
  everythingCount: number;
  everythingMedianMs: number;
  everythingP95Ms: number;
  /** The preference page's form POST (303), one reader a run. */
  preferencesMedianMs: number;
  preferencesP95Ms: number;
  /** The anchor: the same readers' `GET /api/preferences`, run in turn with the POSTs. */
  preferencesReadMedianMs: number;
  preferencesReadP95Ms: number;
  sendFixedSeconds: number;
  sendAnsweredMs: number;
  total: number;
  /** The anchor: a send of the same post to everyone, fixed. */
  everyoneFixedSeconds: number;
  everyoneTotal: number;
  /** The process's first send (`tag tag-1`), which also warms the email renderer: the cold figure. */
  firstSendFixedSeconds: number;
  firstSendTotal: number;
  seedSeconds: number;
  /** `/proc/loadavg`'s one-minute figure when the measures began and ended (the machine is shared). */
  loadAverage: [number, number];
}

/** Three terms, one of each kind of probe: a topic (or everything), a tag, NOT a tag. */
export const benchExpression = "follows topic-3 OR tag tag-7, NOT tag tag-12";
/** The first send's segment: it warms the process, and its time is kept as the cold figure. */
const warmExpression = "tag tag-1";

const log = (message: string) => console.log(`[segments ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** The one-minute load average (0 where /proc is not there). */
const loadAverage = async () => Number((await readFile("/proc/loadavg", "utf8").catch(() => "0")).split(" ")[0]);

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
    const audience = async (segment: string) => {
      const response = await app.call("/api/newsletter/audience", { method: "POST", headers, body: JSON.stringify({ segment }) });
      if (response.status !== 200) throw new Error(`the count answered ${String(response.status)}: ${await response.text()}`);
      return ((await response.json()) as { count: number }).count;
    };
    const timed = async (work: () => Promise<unknown>, into: number[]) => {
      const at = performance.now();
      await work();
      into.push(performance.now() - at);
    };
    const summary = (times: number[]) => {
      const sorted = [...times].sort((a, b) => a - b);
      return { median: percentile(sorted, 50), p95: percentile(sorted, 95) };
    };
    const loadStart = await loadAverage();
    // Warm: the first call plans the statements.
    const counted = await audience(benchExpression);
    const everythingCount = await audience("everything");
    const segmentTimes: number[] = [];
    const everythingTimes: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      await timed(() => audience(benchExpression), segmentTimes);
      await timed(() => audience("everything"), everythingTimes);
    }
    const countTimes = summary(segmentTimes);
    const everythingSummary = summary(everythingTimes);
    log(
      `count ${String(counted)}: median ${countTimes.median.toFixed(1)} ms, p95 ${countTimes.p95.toFixed(1)} ms over ${String(runs)} runs; ` +
        `anchor everything (${String(everythingCount)}): median ${everythingSummary.median.toFixed(1)} ms, p95 ${everythingSummary.p95.toFixed(1)} ms`,
    );

    const fix = async (segment: string | undefined) => {
      const postForm = await multipartBody({ content: "<p>This week.</p>", title: `Bench send to ${segment ?? "everyone"}`, published: "true" });
      const post = (await (
        await app.call("/api/blog-posts", { method: "POST", headers: { ...headers, "content-type": postForm.contentType }, body: postForm.body })
      ).json()) as Post;
      const sendStarted = performance.now();
      const response = await app.call("/api/newsletter/sends", {
        method: "POST",
        headers,
        body: JSON.stringify({ postId: post.id, ...(segment !== undefined && { segment }) }),
      });
      let send = (await response.json()) as NewsletterSend;
      const answeredMs = performance.now() - sendStarted;
      if (response.status !== 202) throw new Error(`the send answered ${String(response.status)}: ${JSON.stringify(send)}`);
      while (send.status === "preparing") {
        await startDueSends(app.deps, { until: new Date(Date.now() + 20_000) });
        send = (await (await app.call(`/api/newsletter/sends/${String(send.id)}`, { headers })).json()) as NewsletterSend;
      }
      return { answeredMs, fixedSeconds: (performance.now() - sendStarted) / 1000, send };
    };
    // The first send of a process also loads and warms what renders an email (about 2 s here):
    // taken by a send to a smaller segment, so the two measured next compare on equal terms.
    const warm = await fix(warmExpression);
    log(`first send (warms the renderer): ${String(warm.send.total)} fixed after ${warm.fixedSeconds.toFixed(2)} s`);
    const segmentSend = await fix(benchExpression);
    const sendAnsweredMs = segmentSend.answeredMs;
    const sendFixedSeconds = segmentSend.fixedSeconds;
    const send = segmentSend.send;
    log(`send answered in ${sendAnsweredMs.toFixed(0)} ms; ${send.status} with ${String(send.total)} fixed after ${sendFixedSeconds.toFixed(2)} s`);
    const everyone = await fix(undefined);
    log(`anchor, a send to everyone: ${everyone.send.status} with ${String(everyone.send.total)} fixed after ${everyone.fixedSeconds.toFixed(2)} s`);
    // After the sends, as it changes who a segment holds: the preference page's POST as its form
    // sends it (same origin, urlencoded, ticked boxes repeating `topics`), each run another reader
    // who chose topics, with a different choice each time.
    const { rows: readers } = await app.deps.db.query<{ id: number }>(
      "SELECT id FROM subscribers WHERE status = 'active' AND NOT follows_everything ORDER BY id LIMIT $1",
      [runs + 1],
    );
    const form = { origin: testOrigin, "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" };
    const savePreferences = async (index: number) => {
      const token = signPreferencesToken(app.deps.signer, readers[index]?.id ?? 0);
      const topics = [1 + (index % 10), 1 + ((index * 3 + 1) % 10)].map((n) => `topics=topic-${String(n)}`).join("&");
      const response = await app.call(`/api/preferences?token=${encodeURIComponent(token)}`, {
        method: "POST",
        headers: form,
        body: `everything=false&${topics}&frequency=${index % 2 === 0 ? "each" : "weekly"}`,
      });
      if (response.status !== 303 || !(response.headers.get("location") ?? "").includes("saved=1")) {
        throw new Error(`the preference POST answered ${String(response.status)} to ${String(response.headers.get("location"))}`);
      }
    };
    const readPreferences = async (index: number) => {
      const token = signPreferencesToken(app.deps.signer, readers[index]?.id ?? 0);
      const response = await app.call(`/api/preferences?token=${encodeURIComponent(token)}`);
      if (response.status !== 200) throw new Error(`the preference GET answered ${String(response.status)}`);
      await response.json();
    };
    await savePreferences(runs);
    await readPreferences(runs);
    const saveTimes: number[] = [];
    const readTimes: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      await timed(() => savePreferences(run), saveTimes);
      await timed(() => readPreferences(run), readTimes);
    }
    const saves = summary(saveTimes);
    const reads = summary(readTimes);
    log(
      `preference POST: median ${saves.median.toFixed(1)} ms, p95 ${saves.p95.toFixed(1)} ms over ${String(runs)} readers; ` +
        `anchor GET: median ${reads.median.toFixed(1)} ms, p95 ${reads.p95.toFixed(1)} ms`,
    );

    const loadEnd = await loadAverage();
    return {
      subscribers: count,
      expression: benchExpression,
      count: counted,
      runs,
      countMedianMs: countTimes.median,
      countP95Ms: countTimes.p95,
      everythingCount,
      everythingMedianMs: everythingSummary.median,
      everythingP95Ms: everythingSummary.p95,
      preferencesMedianMs: saves.median,
      preferencesP95Ms: saves.p95,
      preferencesReadMedianMs: reads.median,
      preferencesReadP95Ms: reads.p95,
      sendFixedSeconds,
      sendAnsweredMs,
      total: send.total,
      everyoneFixedSeconds: everyone.fixedSeconds,
      everyoneTotal: everyone.send.total,
      firstSendFixedSeconds: warm.fixedSeconds,
      firstSendTotal: warm.send.total,
      seedSeconds,
      loadAverage: [loadStart, loadEnd],
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
