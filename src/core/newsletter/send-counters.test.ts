import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { databaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { recordEmailEvent, recordSmtpBounce } from "../email-events/email-events.service.ts";
import type { EmailEventType } from "../email-events/provider-events.ts";
import { pauseIfOverThresholds } from "../email-events/send-health.ts";
import { markFailed, markSent, markSkipped } from "./newsletter-queue.ts";
import { cancelSend, retryFailed, sendStatus } from "./newsletter-sends.ts";
import { seededRandom } from "../../../tests/support/seeded-random.ts";

// A send's counters (migration 0037, docs/decisions/0066-send-counters.md) against a recount of its
// rows and events — the way the figures were counted before the counters.
const clock = createFakeClock();
let app: TestApp;

/** A queued send of `count` fresh active subscribers, its recipients fixed as the preparing does. */
async function queuedSend(prefix: string, count: number): Promise<number> {
  const db = app.deps.db;
  await db.query("UPDATE subscribers SET status = 'unsubscribed', unsubscribed_at = $1 WHERE status = 'active'", [clock.now()]);
  await db.query(
    "INSERT INTO subscribers (email, status, source) SELECT $1 || '-' || n || '@example.com', 'active', 'import' FROM generate_series(1, $2) AS n",
    [prefix, count],
  );
  const { rows: posts } = await db.query<{ id: number }>(
    "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ($1, '<p>Hi.</p>', 'Hi', true, $2) RETURNING id",
    [prefix, clock.now()],
  );
  const { rows } = await db.query<{ id: number }>(
    "INSERT INTO newsletter_sends (post_id, status, subject, html, text, created_at, started_at) VALUES ($1, 'sending', 'Hi', '', '', $2, $2) RETURNING id",
    [posts[0]?.id, clock.now()],
  );
  const sendId = (rows[0] as { id: number }).id;
  await db.query(
    "INSERT INTO newsletter_recipients (send_id, subscriber_id) SELECT $1, id FROM subscribers WHERE status = 'active' AND email LIKE $2 || '-%' ORDER BY id",
    [sendId, prefix],
  );
  return sendId;
}

interface Figures {
  pending: number;
  sent: number;
  failed: number;
  skipped: number;
  bounced: number;
  bounced_after: number;
  soft_bounced: number;
  complained: number;
}

async function counters(sendId: number): Promise<Figures> {
  const { rows } = await app.deps.db.query<Figures>(
    `SELECT count_pending AS pending, count_sent AS sent, count_failed AS failed, count_skipped AS skipped, count_bounced AS bounced,
            count_bounced_after AS bounced_after, count_soft_bounced AS soft_bounced, count_complained AS complained
       FROM newsletter_sends WHERE id = $1`,
    [sendId],
  );
  return rows[0] as Figures;
}

/** The figures counted from every row, as `sendStatus` and the pause rule did before migration 0037. */
async function recount(sendId: number): Promise<Figures> {
  const { rows } = await app.deps.db.query<Figures>(
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
  return rows[0] as Figures;
}

async function rowsOf(sendId: number, status: string): Promise<{ id: number; subscriber_id: number; message_id: string | null }[]> {
  const { rows } = await app.deps.db.query<{ id: number; subscriber_id: number; message_id: string | null }>(
    "SELECT id, subscriber_id, message_id FROM newsletter_recipients WHERE send_id = $1 AND status = $2 ORDER BY id",
    [sendId, status],
  );
  return rows;
}

const eventTypes: EmailEventType[] = ["hard_bounce", "soft_bounce", "complaint", "delivered"];

// PGlite, and PostgreSQL through `pg` when TEST_DATABASE_URL is set (concurrent transactions).
const targets = databaseTargets.filter((target) => target.driver !== "neon");

describe.each(targets)("on $name", (target) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({ clock, db: testDb.db });
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  describe("a send's counters", () => {
    it("equal a recount after random marks, events, replays, a retry and a cancel", async () => {
      const sendId = await queuedSend("random", 300);
      const next = seededRandom(39);
      const pick = <T>(items: T[]): T | undefined => items[Math.floor(next() * items.length)];
      const heard: { provider: "postmark" | "ses"; eventId: string; type: EmailEventType; messageId: string; email: string }[] = [];
      for (let step = 0; step < 120; step++) {
        const roll = next();
        const pending = await rowsOf(sendId, "pending");
        if (roll < 0.3 && pending.length > 0) {
          // A group of sent marks, as the worker's group commit writes them: one statement.
          const group = pending.filter(() => next() < 0.1).map((row) => ({ id: row.id, messageId: `<r${String(row.id)}@nofilter.test>` }));
          await markSent(app.deps, group, "Hi");
        } else if (roll < 0.38 && pending[0]) {
          await markFailed(app.deps.db, (pick(pending) ?? pending[0]).id, "550 5.7.1 refused");
        } else if (roll < 0.43 && pending.length > 0) {
          await markSkipped(
            app.deps.db,
            pending.filter(() => next() < 0.05).map((row) => row.id),
          );
        } else if (roll < 0.46) {
          await retryFailed(app.deps, sendId);
        } else if (roll < 0.5) {
          const row = pick(await rowsOf(sendId, "sent"));
          if (row?.message_id)
            await recordSmtpBounce(app.deps, {
              ref: `newsletter:${String(row.id)}`,
              subscriberId: row.subscriber_id,
              sendId,
              messageId: row.message_id,
              reason: "550 5.1.1 unknown",
            });
        } else if (roll < 0.6 && heard.length > 0) {
          // A replay: the provider sends the same event again (its id unchanged).
          const event = pick(heard);
          if (event) await recordEmailEvent(app.deps, event.provider, { ...event, reason: "again", occurredAt: clock.now() });
        } else {
          // A provider's event about a message sent (a second event about the same message has its own id).
          const row = pick(await rowsOf(sendId, "sent"));
          if (!row?.message_id) continue;
          const { rows } = await app.deps.db.query<{ email: string }>("SELECT email FROM subscribers WHERE id = $1", [row.subscriber_id]);
          const event = {
            provider: next() < 0.5 ? ("postmark" as const) : ("ses" as const),
            eventId: `e${String(step)}`,
            type: pick(eventTypes) ?? "complaint",
            messageId: row.message_id,
            email: rows[0]?.email ?? "",
          };
          heard.push(event);
          await recordEmailEvent(app.deps, event.provider, { ...event, reason: "from the provider", occurredAt: clock.now() });
        }
        expect(await counters(sendId)).toEqual(await recount(sendId));
      }
      const figures = await recount(sendId);
      // The walk did reach every kind of figure.
      expect(figures.sent * figures.failed * figures.skipped * figures.bounced * figures.bounced_after).toBeGreaterThan(0);
      expect(figures.soft_bounced * figures.complained).toBeGreaterThan(0);
      await cancelSend(app.deps, sendId);
      expect(await counters(sendId)).toEqual(await recount(sendId));
      const status = await sendStatus(app.deps, sendId);
      const after = await recount(sendId);
      expect(status).toMatchObject({
        total: 300,
        sent: after.sent,
        failed: after.failed,
        skipped: after.skipped,
        pending: after.pending,
        bounced: after.bounced,
        softBounced: after.soft_bounced,
        complained: after.complained,
        delivered: after.sent - after.bounced_after,
      });
      expect(status.sent + status.failed + status.skipped + status.pending).toBe(status.total);
    });

    it("stay equal to a recount when events about one send arrive together (two about the same message count once)", async () => {
      const sendId = await queuedSend("together", 200);
      const pending = await rowsOf(sendId, "pending");
      await markSent(
        app.deps,
        pending.map((row) => ({ id: row.id, messageId: `<t${String(row.id)}@nofilter.test>` })),
        "Hi",
      );
      const { rows: people } = await app.deps.db.query<{ email: string; message_id: string }>(
        "SELECT s.email, r.message_id FROM newsletter_recipients r JOIN subscribers s ON s.id = r.subscriber_id WHERE r.send_id = $1 ORDER BY r.id",
        [sendId],
      );
      // Each message bounced, twice over (two event ids), all at once: on PostgreSQL, concurrent transactions.
      await Promise.all(
        people.flatMap((person, n) =>
          ["a", "b"].map((copy) =>
            recordEmailEvent(app.deps, "postmark", {
              eventId: `together-${String(n)}-${copy}`,
              type: n % 2 === 0 ? "hard_bounce" : "complaint",
              email: person.email,
              messageId: person.message_id,
              reason: "550 gone",
              occurredAt: clock.now(),
            }),
          ),
        ),
      );
      expect(await counters(sendId)).toMatchObject({ sent: 200, bounced: 100, bounced_after: 100, complained: 100 });
      expect(await counters(sendId)).toEqual(await recount(sendId));
    });

    // Each event's foreign key holds a KEY SHARE lock on its send until it commits; the counting
    // must not wait for it (FOR UPDATE did: concurrent webhooks deadlocked). Needs two connections.
    it.runIf(target.driver !== "pglite")("count a bounce while another event about the send is still open", async () => {
      const sendId = await queuedSend("open", 2);
      const [first, second] = await rowsOf(sendId, "pending");
      await markSent(
        app.deps,
        [first, second].map((row) => ({ id: row?.id ?? 0, messageId: `<o${String(row?.id)}@nofilter.test>` })),
        "Hi",
      );
      const { rows } = await app.deps.db.query<{ email: string }>("SELECT email FROM subscribers WHERE id = $1", [second?.subscriber_id]);
      await app.deps.db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO email_events (provider, event_id, type, subscriber_id, send_id, message_ref, reason, occurred_at, received_at)
           VALUES ('ses', 'open-delivered', 'delivered', $1, $2, $3, '', $4, $4)`,
          [first?.subscriber_id, sendId, `<o${String(first?.id)}@nofilter.test>`, clock.now()],
        );
        // Another connection, while this transaction holds its lock: it must not wait for it.
        await recordEmailEvent(app.deps, "postmark", {
          eventId: "open-bounce",
          type: "hard_bounce",
          email: rows[0]?.email ?? "",
          messageId: `<o${String(second?.id)}@nofilter.test>`,
          reason: "550 gone",
          occurredAt: clock.now(),
        });
      });
      expect(await counters(sendId)).toMatchObject({ sent: 2, bounced: 1, bounced_after: 1 });
      expect(await counters(sendId)).toEqual(await recount(sendId));
    });

    it("stay equal to a recount when a settle and an event are rolled back (a crash before the commit)", async () => {
      const sendId = await queuedSend("crash", 50);
      const pending = await rowsOf(sendId, "pending");
      await markSent(
        app.deps,
        pending.slice(0, 10).map((row) => ({ id: row.id, messageId: `<c${String(row.id)}@nofilter.test>` })),
        "Hi",
      );
      const before = await counters(sendId);
      const crash = new Error("the process died");
      await expect(
        app.deps.db.transaction(async (tx) => {
          await markSent(
            { db: tx, now: clock.now },
            pending.slice(10, 30).map((row) => ({ id: row.id, messageId: `<c${String(row.id)}@nofilter.test>` })),
            "Hi",
          );
          await markSkipped(tx, [pending[40]?.id ?? 0]);
          await tx.query(
            `INSERT INTO email_events (provider, event_id, type, subscriber_id, send_id, message_ref, reason, occurred_at, received_at)
             VALUES ('ses', 'lost', 'complaint', $1, $2, $3, '', $4, $4)`,
            [pending[0]?.subscriber_id, sendId, `<c${String(pending[0]?.id)}@nofilter.test>`, clock.now()],
          );
          expect((await tx.query<{ count_sent: number }>("SELECT count_sent FROM newsletter_sends WHERE id = $1", [sendId])).rows[0]).toEqual({
            count_sent: 30,
          });
          throw crash;
        }),
      ).rejects.toBe(crash);
      expect(await counters(sendId)).toEqual(before);
      expect(await counters(sendId)).toEqual(await recount(sendId));
      expect(before).toMatchObject({ sent: 10, pending: 40, complained: 0 });
    });
  });

  describe("the pause rule on counters", () => {
    async function complaints(sendId: number, from: number, count: number): Promise<void> {
      const sent = await rowsOf(sendId, "sent");
      for (const row of sent.slice(from, from + count)) {
        const { rows } = await app.deps.db.query<{ email: string }>("SELECT email FROM subscribers WHERE id = $1", [row.subscriber_id]);
        const at = await recordEmailEvent(app.deps, "postmark", {
          eventId: `spam-${String(row.id)}`,
          type: "complaint",
          email: rows[0]?.email ?? "",
          messageId: row.message_id ?? undefined,
          reason: "abuse",
          occurredAt: clock.now(),
        });
        if (at !== undefined) await pauseIfOverThresholds(app.deps, at);
      }
    }

    it("pauses at its threshold while the send goes out, and never once it has ended", async () => {
      const running = await queuedSend("running", 1000);
      const rows = await rowsOf(running, "pending");
      await markSent(
        app.deps,
        rows.map((row) => ({ id: row.id, messageId: `<p${String(row.id)}@nofilter.test>` })),
        "Hi",
      );
      await complaints(running, 0, 2);
      expect((await sendStatus(app.deps, running)).status).toBe("sending");
      await complaints(running, 2, 1);
      // 3 of 1,000 delivered is the 0.3 % default.
      await complaints(running, 3, 2);
      expect(await sendStatus(app.deps, running)).toMatchObject({ status: "paused", complained: 5 });

      const ended = await queuedSend("ended", 1000);
      const endedRows = await rowsOf(ended, "pending");
      await markSent(
        app.deps,
        endedRows.map((row) => ({ id: row.id, messageId: `<q${String(row.id)}@nofilter.test>` })),
        "Hi",
      );
      await app.deps.db.query("UPDATE newsletter_sends SET status = 'sent', finished_at = $2 WHERE id = $1", [ended, clock.now()]);
      await complaints(ended, 0, 50);
      expect(await sendStatus(app.deps, ended)).toMatchObject({ status: "sent", complained: 50, sent: 1000, pending: 0 });
    });
  });
});
