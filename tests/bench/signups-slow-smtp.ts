/**
 * Signups while the mail provider is slow, and the outbox after an outage, under a fresh
 * `npm start` whose mail goes to an SMTP sink that answers each message 300 ms late (a remote
 * provider's pace). The answer no longer waits for mail (the outbox, decision 0026): the signups
 * per second and p99 say so, twice: with 64 connections signing up as fast as answers come (the
 * most the server takes), and with signups arriving at 300 a second (the target's rate, as visitors
 * come: nobody waits for someone else's answer to sign up). Then the sink goes down, people sign up, and it comes back: the time
 * from its return to the last queued email delivered (the outbox's pause backoff included).
 *   node tests/bench/signups-slow-smtp.ts [siteUrl] [seconds]
 */
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon, { type Result } from "autocannon";
import { startSmtpSink } from "../support/smtp-sink.ts";
import { adminCookie } from "./admin-session.ts";
import { loadFigures } from "./api-load.ts";
import { openLoopLoad, postJson } from "./open-loop.ts";
import { readAdminPassword, startLocalSite, stopLocalSite, type LocalSite } from "./local-site.ts";

/** One load's figures: what was answered per second and how long the answers took. */
export interface SignupLoadFigures {
  signupsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface SlowSmtpFigures {
  smtpDelayMs: number;
  /** As many signups as 64 connections can make, each waiting for its answer before the next. */
  saturated: SignupLoadFigures;
  /** Signups arriving at the target's rate (300 a second), as visitors do, whatever the answers take. */
  offered: SignupLoadFigures & { rate: number };
  /** Confirmations queued during the outage, and the time from the provider's return until the last was delivered (not measured on PostgreSQL). */
  outage?: { queued: number; pausedReason: string | null; recoveryToLastDeliveredSeconds: number };
}

const smtpDelayMs = 300;
const targetRate = 300;
const outageSignups = 100;

async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function measureSignupsWithSlowSmtp(
  siteUrl: string,
  seconds = 10,
  options: { env?: Record<string, string>; outage?: boolean } = {},
): Promise<SlowSmtpFigures> {
  const sink = await startSmtpSink({ keep: "counts", delayMs: smtpDelayMs });
  const stateDir = await mkdtemp(path.join(tmpdir(), "nf-bench-slow-smtp-"));
  const origin = new URL(siteUrl).origin;
  let site: LocalSite | undefined;
  try {
    site = await startLocalSite(siteUrl, stateDir, {
      RATE_LIMIT_MULTIPLIER: "1000000",
      SMTP_URL: sink.url,
      SMTP_MAX_CONNECTIONS: "50",
      ...options.env,
    });
    const signups = (prefix: string) =>
      autocannon({
        url: new URL("/api/newsletter/subscribe", siteUrl).href,
        connections: 64,
        duration: seconds,
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: `{"email":"${prefix}[<id>]@bench.example"}`,
        idReplacement: true,
      });
    const figures = (load: Result): SignupLoadFigures => {
      const { requestsPerSecond, ...rest } = loadFigures(load);
      return { signupsPerSecond: requestsPerSecond, ...rest };
    };
    const saturated = await signups("s");
    await until("the saturated load's confirmations", 600_000, () =>
      Promise.resolve(sink.counts().received >= saturated.requests.total - saturated.non2xx ? true : undefined),
    );
    // Plain HTTP/1.1 over kept-alive sockets (64 at most, as the saturated load): cheaper for this
    // process than fetch, which shares the machine's two cores with the server.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const offered = await openLoopLoad({
      seconds,
      rate: targetRate,
      send: (index) =>
        postJson(agent, new URL("/api/newsletter/subscribe", siteUrl), { origin }, JSON.stringify({ email: `r${String(index)}@bench.example` })),
    });
    agent.destroy();
    const accepted = saturated.requests.total - saturated.non2xx + offered.answered - offered.non2xx;
    // Every confirmation the load queued goes out before the outage starts.
    await until("the load's confirmations", 600_000, () => Promise.resolve(sink.counts().received >= accepted ? true : undefined));
    const loads = {
      smtpDelayMs,
      saturated: figures(saturated),
      offered: {
        signupsPerSecond: offered.answeredPerSecond,
        p50Ms: offered.p50Ms,
        p99Ms: offered.p99Ms,
        non2xx: offered.non2xx,
        errors: offered.errors,
        rate: targetRate,
      },
    };
    if (options.outage === false) return loads;

    const cookie = await adminCookie(siteUrl, await readAdminPassword(stateDir));
    const health = async () =>
      (await (await fetch(new URL("/api/mail/outbox", siteUrl), { headers: { cookie } })).json()) as {
        paused: { reason: string } | null;
        pending: number;
      };
    sink.provider("refuse");
    for (let i = 0; i < outageSignups; i++) {
      const response = await fetch(new URL("/api/newsletter/subscribe", siteUrl), {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ email: `outage${String(i)}@bench.example` }),
      });
      if (!response.ok) throw new Error(`signup during the outage: ${String(response.status)}`);
    }
    const paused = await until("the outbox to pause", 120_000, async () => {
      const now = await health();
      return now.paused && now.pending >= outageSignups ? now.paused : undefined;
    });
    const before = sink.counts().received;
    sink.provider(undefined);
    const back = performance.now();
    await until("the queued confirmations", 40 * 60_000, () => Promise.resolve(sink.counts().received >= before + outageSignups ? true : undefined));
    return {
      ...loads,
      outage: { queued: outageSignups, pausedReason: paused.reason, recoveryToLastDeliveredSeconds: (performance.now() - back) / 1000 },
    };
  } finally {
    if (site) await stopLocalSite(site);
    await sink.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  console.log(await measureSignupsWithSlowSmtp(process.argv[2] ?? "http://localhost:8890", Number(process.argv[3] ?? 10)));
}
