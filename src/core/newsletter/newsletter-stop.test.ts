import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testMailFrom, type TestApp } from "../../../tests/support/test-app.ts";
import { smtpMailer } from "../../adapters/smtp-mailer.ts";
import { recordEmailEvent } from "../email-events/email-events.service.ts";
import { pauseIfOverThresholds } from "../email-events/send-health.ts";
import { freshReads } from "../mail/delivery-engine.ts";
import type { Mailer } from "../mail/mailer.ts";
import { cancelSend, resumePausedSend, sendStatus, startSend } from "./newsletter-sends.ts";
import { dueSends, pauseSend } from "./newsletter-queue.ts";
import { runSendWorker } from "./newsletter-worker.ts";

// Issue 40, points 5 and 6: a pause or cancel stops a running send at once (only the messages
// already handed to SMTP go out after it), and a provider answering "550 5.1.1" to everyone pauses
// the send without bouncing anyone. A real database, the real SMTP sink, a fake clock.

const clock = createFakeClock();
let app: TestApp;
/** While set, the sink refuses every recipient as unknown: a provider misconfigured, not the list. */
let refuseEveryone = false;
/** Messages handed over at once: five SMTP connections, five slots (the worker's default). */
const concurrency = 5;

beforeAll(async () => {
  app = await createTestApp({
    clock,
    smtp: {
      reject: () => (refuseEveryone ? 550 : undefined),
      rejectText: (address) => `5.1.1 <${address}>: Recipient address rejected: User unknown in virtual mailbox table`,
    },
  });
});
afterAll(async () => {
  await app.close();
});
afterEach(async () => {
  refuseEveryone = false;
  app.mail.clear();
  await app.deps.db.exec("DELETE FROM email_events; DELETE FROM newsletter_sends; DELETE FROM subscribers; DELETE FROM posts");
});

/** Five connections, as a provider's pool: up to five messages are on the wire when the send stops. */
function pooledDeps() {
  return { ...app.deps, mail: smtpMailer(app.mail.url, testMailFrom, { maxConnections: concurrency }) };
}

async function sendTo(count: number, prefix: string): Promise<number> {
  await app.deps.db.query(
    "INSERT INTO subscribers (email, status, source) SELECT $1 || '-' || n || '@example.com', 'active', 'import' FROM generate_series(1, $2) AS n",
    [prefix, count],
  );
  const { rows } = await app.deps.db.query<{ id: number }>(
    "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Cash flow', '<p>Read it.</p>', 'Short', true, $1) RETURNING id",
    [clock.now()],
  );
  return (await startSend(app.deps, (rows[0] as { id: number }).id)).id;
}

/** Five spam complaints about messages of the send, as a provider's webhook reports them (then the figures are checked). */
async function fiveComplaints(sendId: number): Promise<string | undefined> {
  const { rows } = await app.deps.db.query<{ message_id: string; email: string }>(
    `SELECT r.message_id, s.email FROM newsletter_recipients r JOIN subscribers s ON s.id = r.subscriber_id
      WHERE r.send_id = $1 AND r.status = 'sent' ORDER BY r.id LIMIT 5`,
    [sendId],
  );
  expect(rows).toHaveLength(5);
  for (const row of rows) {
    await recordEmailEvent(app.deps, "ses", {
      eventId: `complaint-${row.message_id}`,
      type: "complaint",
      email: row.email,
      messageId: row.message_id,
      reason: "abuse",
      occurredAt: clock.now(),
    });
  }
  return pauseIfOverThresholds(app.deps, sendId);
}

// A thousand messages over real SMTP, twice in the first test: 10–20 s on a quiet machine, past vitest's 30 s
// with the browser tests beside it (`npm test` on a loaded CI machine, 2026-11-29). A test that times out leaves its
// worker sending into the next one, so the bound is generous.
describe("a pause or cancel while a send is going out", { timeout: 120_000 }, () => {
  it("a complaint pause on a 1,000-recipient send lets only the messages already handed over through; Resume sends the rest once", async () => {
    const sendId = await sendTo(1000, "complain");
    const deps = pooledDeps();
    try {
      const running = runSendWorker(deps, sendId, { concurrency });
      await app.mail.waitFor(100, 30_000);
      expect(await fiveComplaints(sendId)).toContain("5 spam complaints");
      const atPause = app.mail.counts().received;
      const run = await running;
      const after = app.mail.counts().received - atPause;
      // Before: the batches claimed kept going out (109 more in the audit; here about 100).
      expect(after).toBeLessThanOrEqual(concurrency);
      expect(run).toMatchObject({ finished: false, stopped: expect.stringContaining("5 spam complaints") as string });
      const paused = await sendStatus(app.deps, sendId);
      expect(paused).toMatchObject({ status: "paused", sent: app.mail.counts().received, failed: 0, skipped: 0 });
      expect(paused.pending).toBe(1000 - paused.sent);
      // The rows claimed and not handed over went back as they were: free to claim, their try not counted.
      const { rows } = await app.deps.db.query<{ held: number; tried: number }>(
        `SELECT count(*) FILTER (WHERE lease_until IS NOT NULL)::int AS held, count(*) FILTER (WHERE attempts > 0)::int AS tried
           FROM newsletter_recipients WHERE send_id = $1 AND status = 'pending'`,
        [sendId],
      );
      expect(rows[0]).toEqual({ held: 0, tried: 0 });

      await resumePausedSend(app.deps, sendId);
      expect(await runSendWorker(deps, sendId, { concurrency })).toMatchObject({ finished: true, failed: 0 });
      expect(app.mail.counts()).toEqual({ received: 1000, distinct: 1000, duplicates: 0 });
      expect(await sendStatus(app.deps, sendId)).toMatchObject({ status: "sent", sent: 1000, pending: 0 });
    } finally {
      await deps.mail.close();
    }
  });

  it("a cancel by the owner on a 1,000-recipient send lets only the messages already handed over through, and leaves nothing pending", async () => {
    const sendId = await sendTo(1000, "cancel");
    const deps = pooledDeps();
    try {
      const running = runSendWorker(deps, sendId, { concurrency });
      await app.mail.waitFor(100, 30_000);
      await cancelSend(app.deps, sendId);
      const atCancel = app.mail.counts().received;
      const run = await running;
      expect(app.mail.counts().received - atCancel).toBeLessThanOrEqual(concurrency);
      expect(run).toMatchObject({ finished: true, stopped: "The send is cancelled" });
      const cancelled = await sendStatus(app.deps, sendId);
      expect(cancelled).toMatchObject({ status: "cancelled", pending: 0, sent: app.mail.counts().received, failed: 0 });
      expect(cancelled.skipped).toBe(1000 - cancelled.sent);
      expect(app.mail.counts().duplicates).toBe(0);
    } finally {
      await deps.mail.close();
    }
  });

  it("another worker's provider pause stops this one too, and the send is taken up when the pause is over", async () => {
    const sendId = await sendTo(300, "elsewhere");
    const deps = pooledDeps();
    try {
      const running = runSendWorker(deps, sendId, { concurrency });
      await app.mail.waitFor(100, 30_000);
      // As a worker on another instance does when its SMTP connection is refused.
      await pauseSend(app.deps, sendId, "421 4.3.2 Service not available");
      const atPause = app.mail.counts().received;
      const run = await running;
      expect(app.mail.counts().received - atPause).toBeLessThanOrEqual(concurrency);
      expect(run).toMatchObject({ finished: false, stopped: "421 4.3.2 Service not available" });
      expect(await dueSends(app.deps)).toEqual([]);
      clock.advance(60_000);
      expect(await dueSends(app.deps)).toEqual([sendId]);
      expect(await runSendWorker(deps, sendId, { concurrency })).toMatchObject({ finished: true });
      expect(app.mail.counts()).toEqual({ received: 300, distinct: 300, duplicates: 0 });
    } finally {
      await deps.mail.close();
    }
  });
});

describe("a provider refusing everyone as unknown (a 550 streak)", () => {
  const bouncedCount = async () => {
    const { rows } = await app.deps.db.query<{ subscribers: number; events: number }>(
      `SELECT (SELECT count(*) FROM subscribers WHERE status = 'bounced')::int AS subscribers,
              (SELECT count(*) FROM email_events WHERE type = 'hard_bounce')::int AS events`,
    );
    return rows[0];
  };

  it.each([1, concurrency])(
    "pauses the send with no one bounced and every row pending; each gets the mail once it is back (%i at once)",
    async (slots) => {
      const sendId = await sendTo(20, `streak${String(slots)}`);
      refuseEveryone = true;
      const deps = pooledDeps();
      try {
        const run = await runSendWorker(deps, sendId, { concurrency: slots });
        expect(run).toMatchObject({ sent: 0, failed: 0, finished: false, paused: expect.stringContaining("User unknown") as string });
        // Before: the four refusals before the fifth had made their subscribers `bounced` for good.
        expect(await bouncedCount()).toEqual({ subscribers: 0, events: 0 });
        expect(await sendStatus(app.deps, sendId)).toMatchObject({ status: "sending", pending: 20, failed: 0, bounced: 0 });

        refuseEveryone = false;
        clock.advance(60_000);
        expect(await runSendWorker(deps, sendId, { concurrency: slots })).toMatchObject({ sent: 20, failed: 0, skipped: 0, finished: true });
        expect(app.mail.counts()).toEqual({ received: 20, distinct: 20, duplicates: 0 });
      } finally {
        await deps.mail.close();
      }
    },
  );

  it("still bounces an unknown address refused on its own, and refusals a run ends on (too few to be the provider's)", async () => {
    await app.deps.db.query(
      "INSERT INTO subscribers (email, status, source) VALUES ('a-gone@example.com', 'active', 'import'), ('b-here@example.com', 'active', 'import'), ('c-gone@example.com', 'active', 'import'), ('d-gone@example.com', 'active', 'import')",
    );
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Two', '<p>x</p>', 'x', true, $1) RETURNING id",
      [clock.now()],
    );
    const sendId = (await startSend(app.deps, (rows[0] as { id: number }).id)).id;
    const deps = pooledDeps();
    try {
      // Only the "gone" ones are refused: one before a success, two the run ends on.
      const refusing = new Set(["a-gone@example.com", "c-gone@example.com", "d-gone@example.com"]);
      const run = await runSendWorker({ ...deps, mail: refusingMailer(deps.mail, refusing) }, sendId, { concurrency: 1 });
      expect(run).toMatchObject({ sent: 1, failed: 3, finished: true });
      expect(await bouncedCount()).toEqual({ subscribers: 3, events: 3 });
    } finally {
      await deps.mail.close();
    }
  });
});

describe("unknown-recipient refusals a run is cut short on", () => {
  it("go back pending, bounced by no one, and are heard when they are refused again", async () => {
    await app.deps.db.query(
      "INSERT INTO subscribers (email, status, source) VALUES ('a-gone@example.com', 'active', 'import'), ('b-gone@example.com', 'active', 'import'), ('c-gone@example.com', 'active', 'import'), ('d-here@example.com', 'active', 'import')",
    );
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Cut', '<p>x</p>', 'x', true, $1) RETURNING id",
      [clock.now()],
    );
    const sendId = (await startSend(app.deps, (rows[0] as { id: number }).id)).id;
    const deps = pooledDeps();
    const refusing = new Set(["a-gone@example.com", "b-gone@example.com", "c-gone@example.com"]);
    // Three refusals alike, then the provider fails as a whole (its account suspended) at the fourth.
    const failing: Mailer = {
      close: () => deps.mail.close(),
      async send(message) {
        if (message.to === "d-here@example.com") app.mail.provider("mail-from-554");
        try {
          return await refusingMailer(deps.mail, refusing).send(message);
        } finally {
          app.mail.provider(undefined);
        }
      },
    };
    try {
      const run = await runSendWorker({ ...deps, mail: failing }, sendId, { concurrency: 1 });
      expect(run).toMatchObject({ sent: 0, failed: 0, paused: expect.stringContaining("suspended") as string });
      const counts = await app.deps.db.query<{ bounced: number; pending: number }>(
        `SELECT (SELECT count(*) FROM subscribers WHERE status = 'bounced')::int AS bounced,
                (SELECT count(*) FROM newsletter_recipients WHERE send_id = $1 AND status = 'pending' AND attempts = 0)::int AS pending`,
        [sendId],
      );
      expect(counts.rows[0]).toEqual({ bounced: 0, pending: 4 });
      // The provider is back: the three are refused again, for themselves this time.
      clock.advance(60_000);
      expect(await runSendWorker({ ...deps, mail: refusingMailer(deps.mail, refusing) }, sendId, { concurrency: 1 })).toMatchObject({
        sent: 1,
        failed: 3,
        finished: true,
      });
      const { rows: bounced } = await app.deps.db.query<{ count: number }>("SELECT count(*)::int AS count FROM subscribers WHERE status = 'bounced'");
      expect(bounced[0]?.count).toBe(3);
    } finally {
      await deps.mail.close();
    }
  });
});

/** Hands `refusing` addresses to the sink while it refuses everyone, the rest while it accepts (one at a time). */
function refusingMailer(mail: Mailer, refusing: Set<string>): Mailer {
  return {
    close: () => mail.close(),
    async send(message) {
      refuseEveryone = refusing.has(message.to.toLowerCase());
      try {
        return await mail.send(message);
      } finally {
        refuseEveryone = false;
      }
    },
  };
}

describe("fresh reads shared by the callers that wait", () => {
  it("answers each caller with a read started after it asked, one read at a time", async () => {
    let reads = 0;
    let release: (() => void)[] = [];
    const read = freshReads(
      () =>
        new Promise<number>((resolve) => {
          const n = ++reads;
          release.push(() => resolve(n));
        }),
    );
    const first = read();
    // Asked while the first read runs: both get the second, which starts once the first is over.
    const second = read();
    const third = read();
    expect(reads).toBe(1);
    release.shift()?.();
    expect(await first).toBe(1);
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toBe(2);
    release.shift()?.();
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    release = [];
  });
});
