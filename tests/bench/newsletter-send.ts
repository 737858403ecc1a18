/**
 * The newsletter under `npm start` (issue 15, Speed): a fresh `npm start` in a scratch folder with
 * SMTP_URL pointing at a counting SMTP sink in this process (so the local catcher is off), 10,000
 * active subscribers seeded, and a published demo post sent through the API as the admin:
 * messages/s from the 202 to status "sent", and the server's resident memory before and at its
 * peak during the send. Then a second post to the same list, with `kill -9` of the server when
 * about half is sent and a restart on the same state folder: total wall time, every recipient
 * accounted for, and the messages the sink received more than once (same Message-ID).
 *
 * Memory: resident memory also counts the garbage V8 lets pile up while memory is plentiful, so the
 * server's live heap (after a full collection, over the inspector) is read before the send and at
 * every tenth of it. Flat means the last tenths hold no more than the first: nothing is kept per
 * recipient.
 *
 * Rows in flight at the kill stay leased for the worker's lease (30 s under `npm start`,
 * `localLeaseMs`): the restarted server sends the rest at once and those rows once the lease runs
 * out, so the crash's wall time includes that wait. Run alone:
 *   node tests/bench/newsletter-send.ts [recipients] [--send-only]
 * `--send-only` skips the crash run; BENCH_SERVER_NODE_OPTIONS adds options to the server's node
 * (`--cpu-prof --cpu-prof-dir=…` for a profile of the send, written when the server stops);
 * BENCH_SMTP_CONNECTIONS sets SMTP_MAX_CONNECTIONS (default 10).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSmtpSink } from "../support/smtp-sink.ts";
import { readLocalServerInfo } from "../support/local-server-info.ts";
import { adminCookie } from "./admin-session.ts";
import { seedSubscribers } from "./bulk-seed.ts";
import { readAdminPassword, startLocalSite, stopLocalSite, type LocalSite } from "./local-site.ts";
import { connectLiveHeapProbe, inspectOption } from "./live-heap.ts";
import { trackPeakMemory, treeRss } from "./peak-memory.ts";

/** SMTP connections `npm start` keeps open to the sink (SMTP_MAX_CONNECTIONS; the default is 5). */
export const benchSmtpConnections = Number(process.env.BENCH_SMTP_CONNECTIONS ?? 10);

/** The server's inspector port during the uninterrupted send (for its live heap). */
const inspectorPort = Number(process.env.BENCH_INSPECTOR_PORT ?? 9339);

export interface NewsletterSendFigures {
  recipients: number;
  smtpConnections: number;
  /** From the 202 to status "sent". */
  seconds: number;
  messagesPerSecond: number;
  serverRssBeforeBytes: number;
  serverRssPeakBytes: number;
  /** The server's live heap after a full collection: before the send, then at each tenth sent and when done. */
  liveHeapBytes: number[];
  received: number;
  /** Absent when the run was asked to skip it (`--send-only`). */
  crash?: {
    /** From the 202 to status "sent", the kill, the restart and the lease's wait included. */
    seconds: number;
    /** Messages sent when the server was killed. */
    sentAtKill: number;
    restartMs: number;
    status: string;
    total: number;
    sent: number;
    failed: number;
    skipped: number;
    /** Total minus sent, failed and skipped: 0 when every recipient is accounted for. */
    pending: number;
    received: number;
    /** Message-IDs the sink received more than once. */
    duplicates: number;
  };
}

interface SendStatus {
  id: number;
  status: string;
  total: number;
  sent: number;
  failed: number;
  skipped: number;
}

export async function measureNewsletterSend(siteUrl: string, recipients = 10_000, options: { crash?: boolean } = {}): Promise<NewsletterSendFigures> {
  const sink = await startSmtpSink({ keep: "counts" });
  const stateDir = await mkdtemp(path.join(tmpdir(), "nf-bench-send-"));
  const env = { RATE_LIMIT_MULTIPLIER: "1000000", SMTP_URL: sink.url, SMTP_MAX_CONNECTIONS: String(benchSmtpConnections) };
  let site: LocalSite | undefined;
  try {
    site = await startLocalSite(siteUrl, stateDir, {
      ...env,
      NODE_OPTIONS: `${inspectOption(inspectorPort)} ${process.env.BENCH_SERVER_NODE_OPTIONS ?? ""}`,
    });
    const info = await readLocalServerInfo(stateDir);
    await seedSubscribers(info.databaseUrl, recipients);
    const password = await readAdminPassword(stateDir);
    const posts = (await (await fetch(new URL("/api/blog-posts?published=true", siteUrl))).json()) as { id: number }[];
    const [first, second] = posts;
    if (!first || !second) throw new Error("the demo content has fewer than two published posts");

    const api = async (cookie: string, pathname: string, body?: unknown) => {
      const response = await fetch(new URL(pathname, siteUrl), {
        method: body === undefined ? "GET" : "POST",
        headers: { cookie, origin: new URL(siteUrl).origin, "content-type": "application/json" },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${pathname}: ${String(response.status)} ${await response.text()}`);
      return (await response.json()) as SendStatus;
    };
    const pollUntil = async (
      cookie: string,
      id: number,
      done: (status: SendStatus) => boolean,
      onProgress?: (status: SendStatus) => Promise<void>,
    ) => {
      for (;;) {
        const status = await api(cookie, `/api/newsletter/sends/${String(id)}`);
        if (done(status)) return status;
        await onProgress?.(status);
        if (status.status === "failed") throw new Error(`send ${String(id)} failed: ${JSON.stringify(status)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    // 1. The send, uninterrupted.
    let cookie = await adminCookie(siteUrl, password);
    const pid = site.child.pid ?? 0;
    const heap = await connectLiveHeapProbe(inspectorPort);
    const liveHeapBytes = [await heap.liveHeapBytes()];
    const serverRssBeforeBytes = await treeRss(pid);
    const memory = trackPeakMemory(pid);
    const started = performance.now();
    const send = await api(cookie, "/api/newsletter/sends", { postId: first.id });
    if (send.total !== recipients) throw new Error(`the send has ${String(send.total)} recipients, not ${String(recipients)}`);
    await pollUntil(
      cookie,
      send.id,
      (status) => status.status === "sent",
      async (status) => {
        if (status.sent >= (liveHeapBytes.length * recipients) / 10) liveHeapBytes.push(await heap.liveHeapBytes());
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const serverRssPeakBytes = await memory.stop();
    liveHeapBytes.push(await heap.liveHeapBytes());
    heap.close();
    const { received } = sink.counts();
    const uninterrupted = {
      recipients,
      smtpConnections: benchSmtpConnections,
      seconds,
      messagesPerSecond: recipients / seconds,
      serverRssBeforeBytes,
      serverRssPeakBytes,
      liveHeapBytes,
      received,
    };
    if (options.crash === false) return uninterrupted;

    // 2. Another post to the same list, kill -9 about half-way, restart on the same state folder.
    sink.clear();
    const crashStarted = performance.now();
    const crashSend = await api(cookie, "/api/newsletter/sends", { postId: second.id });
    const atKill = await pollUntil(cookie, crashSend.id, (status) => status.sent >= recipients / 2 || status.status === "sent");
    const killed = site;
    await new Promise<void>((resolve) => {
      killed.child.once("exit", () => resolve());
      killed.child.kill("SIGKILL");
    });
    site = await startLocalSite(siteUrl, stateDir, env);
    cookie = await adminCookie(siteUrl, password);
    const final = await pollUntil(cookie, crashSend.id, (status) => status.status === "sent");
    const crashSeconds = (performance.now() - crashStarted) / 1000;
    const crashCounts = sink.counts();
    return {
      ...uninterrupted,
      crash: {
        seconds: crashSeconds,
        sentAtKill: atKill.sent,
        restartMs: site.readyMs,
        status: final.status,
        total: final.total,
        sent: final.sent,
        failed: final.failed,
        skipped: final.skipped,
        pending: final.total - final.sent - final.failed - final.skipped,
        received: crashCounts.received,
        duplicates: crashCounts.duplicates,
      },
    };
  } finally {
    if (site) await stopLocalSite(site);
    await sink.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const [count = "10000"] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  const figures = await measureNewsletterSend(`http://localhost:${process.env.BENCH_PORT ?? "8890"}`, Number(count), {
    crash: !process.argv.includes("--send-only"),
  });
  console.log(JSON.stringify(figures, null, 2));
}
