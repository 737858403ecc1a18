import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { databaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { getStats } from "../stats/stats.service.ts";
import { listSends } from "../newsletter/newsletter-sends.ts";
import { listHealth } from "./send-health.ts";
import { seededRandom } from "../../../tests/support/seeded-random.ts";

// The dashboard's figures read from tallies and index probes (migration 0041,
// docs/decisions/0070-dashboard-reads-counters.md) against a recount of every row, the way they
// were counted before: the messages sent in list health's 30 days, a send's unsubscribes in the
// sends list and in stats.
const clock = createFakeClock(new Date("2026-06-15T12:00:30.250Z"));
const windowMs = 30 * 24 * 60 * 60 * 1000;
const minuteMs = 60_000;
let app: TestApp;

/** The messages sent since `since`, counted from every row (list health's count before migration 0041). */
async function recountSent(since: Date): Promise<number> {
  const { rows } = await app.deps.db.query<{ sent: number }>(
    `SELECT (SELECT count(*) FROM newsletter_recipients WHERE status = 'sent' AND sent_at >= $1)::int
            + (SELECT count(*) FROM outbox WHERE status = 'sent' AND sent_at >= $1)::int AS sent`,
    [since],
  );
  return rows[0]?.sent ?? -1;
}

/** A send's unsubscribes for stats counted from every recipient row (stats' count before migration 0041). */
async function recountStatsUnsubscribes(): Promise<Map<number, number>> {
  const { rows } = await app.deps.db.query<{ id: number; unsubscribes: number }>(
    `WITH sends AS (SELECT s.id, s.created_at, lead(s.created_at) OVER (ORDER BY s.created_at, s.id) AS next_at FROM newsletter_sends s)
     SELECT s.id, count(*) FILTER (WHERE r.status = 'sent' AND sub.unsubscribed_at >= s.created_at
                                     AND (s.next_at IS NULL OR sub.unsubscribed_at < s.next_at))::int AS unsubscribes
       FROM sends s LEFT JOIN newsletter_recipients r ON r.send_id = s.id LEFT JOIN subscribers sub ON sub.id = r.subscriber_id
      GROUP BY s.id`,
  );
  return new Map(rows.map((row) => [row.id, row.unsubscribes]));
}

/** A send's unsubscribes for the sends list counted from every recipient row (the join before migration 0041). */
async function recountSendUnsubscribes(): Promise<Map<number, number>> {
  const { rows } = await app.deps.db.query<{ id: number; unsubscribed: number }>(
    `SELECT s.id, (SELECT count(*) FROM subscribers us JOIN newsletter_recipients ur ON ur.send_id = s.id AND ur.subscriber_id = us.id
                    WHERE s.started_at IS NOT NULL AND us.status = 'unsubscribed' AND us.unsubscribed_at >= s.started_at
                      AND ur.status = 'sent' AND us.unsubscribed_at >= ur.sent_at
                      AND NOT EXISTS (SELECT 1 FROM newsletter_recipients later
                                       WHERE later.subscriber_id = ur.subscriber_id AND later.status = 'sent'
                                         AND later.sent_at > ur.sent_at AND later.sent_at <= us.unsubscribed_at))::int AS unsubscribed
       FROM newsletter_sends s`,
  );
  return new Map(rows.map((row) => [row.id, row.unsubscribed]));
}

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

  it("list health's messages sent equal a recount, at the window's first minute too, through moves, a rollback, an erasure and a restore's truncate", async () => {
    const db = app.deps.db;
    const next = seededRandom(39);
    const since = new Date(clock.now().getTime() - windowMs);
    // Times around the window's start (within two minutes either side, the first minute above all) and inside it.
    const someTime = () =>
      new Date(next() < 0.6 ? since.getTime() + (next() - 0.5) * 4 * minuteMs : since.getTime() + next() * windowMs).toISOString();
    await db.query(
      "INSERT INTO subscribers (email, status, source) SELECT 'sent-' || n || '@example.com', 'active', 'import' FROM generate_series(1, 300) AS n",
    );
    const { rows: posts } = await db.query<{ id: number }>(
      "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Sent', '<p>Hi.</p>', 'Hi', true, $1) RETURNING id",
      [clock.now()],
    );
    const { rows: sends } = await db.query<{ id: number }>(
      "INSERT INTO newsletter_sends (post_id, status, subject, html, text, created_at, started_at) VALUES ($1, 'sending', 'Hi', '', '', $2, $2) RETURNING id",
      [posts[0]?.id, since],
    );
    const sendId = sends[0]?.id;
    const { rows: people } = await db.query<{ id: number; email: string }>("SELECT id, email FROM subscribers WHERE email LIKE 'sent-%' ORDER BY id");
    await db.query("INSERT INTO newsletter_recipients (send_id, subscriber_id) SELECT $1, unnest($2::int[])", [sendId, people.map((p) => p.id)]);
    const expectEqual = async () => expect((await listHealth(app.deps)).delivered).toBe(await recountSent(since));

    // Marked sent one at a time and in groups, at times around the edge; some failed or skipped.
    for (let i = 0; i < people.length; i += 10) {
      const group = people.slice(i, i + 10).map((p) => p.id);
      const status = next() < 0.8 ? "sent" : next() < 0.5 ? "failed" : "skipped";
      await db.query(
        "UPDATE newsletter_recipients SET status = $3, sent_at = CASE WHEN $3 = 'sent' THEN $4::timestamptz END WHERE send_id = $1 AND subscriber_id = ANY($2)",
        [sendId, group, status, someTime()],
      );
    }
    // Transactional mail: sent, pending and failed rows, inserted already sent as a restore writes them.
    for (const person of people.slice(0, 60)) {
      const status = next() < 0.7 ? "sent" : next() < 0.5 ? "pending" : "failed";
      await db.query(
        `INSERT INTO outbox (kind, subscriber_id, to_address, message_id, status, created_at, sent_at)
         VALUES ('confirmation', $1, $2, $3, $4, $5, CASE WHEN $4 = 'sent' THEN $5::timestamptz END)`,
        [person.id, person.email, `<o${String(person.id)}@example.com>`, status, someTime()],
      );
    }
    await expectEqual();
    expect(await recountSent(since)).toBeGreaterThan(0);

    // A sent row moved to another minute, one taken back, the outbox's pending rows sent now.
    await db.query("UPDATE newsletter_recipients SET sent_at = sent_at + interval '90 seconds' WHERE id % 7 = 0 AND status = 'sent'");
    await db.query("UPDATE newsletter_recipients SET status = 'pending', sent_at = NULL WHERE id % 11 = 0");
    await db.query("UPDATE outbox SET status = 'sent', sent_at = $1 WHERE status = 'pending'", [new Date(since.getTime() + 10_000)]);
    await expectEqual();

    // A rollback takes its tallies back with its rows.
    await expect(
      db.transaction(async (tx) => {
        await tx.query("UPDATE newsletter_recipients SET status = 'sent', sent_at = $1 WHERE status <> 'sent'", [clock.now()]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await expectEqual();

    // An erasure deletes the person's outbox rows and keeps their recipient rows (SET NULL).
    await db.query("DELETE FROM subscribers WHERE id = ANY($1)", [people.slice(0, 20).map((p) => p.id)]);
    await expectEqual();

    // A restore truncates both tables, then writes the rows back.
    await db.transaction(async (tx) => {
      await tx.exec("CREATE TEMP TABLE kept_recipients AS SELECT * FROM newsletter_recipients");
      await tx.exec("CREATE TEMP TABLE kept_outbox AS SELECT * FROM outbox");
      await tx.exec("TRUNCATE newsletter_recipients, outbox");
      expect((await listHealth({ db: tx, now: app.deps.now })).delivered).toBe(0);
      await tx.exec(
        "INSERT INTO newsletter_recipients (send_id, subscriber_id, status, sent_at) SELECT send_id, subscriber_id, status, sent_at FROM kept_recipients",
      );
      await tx.exec(
        "INSERT INTO outbox (kind, subscriber_id, to_address, message_id, status, created_at, sent_at) SELECT kind, subscriber_id, to_address, message_id, status, created_at, sent_at FROM kept_outbox",
      );
      await tx.exec("DROP TABLE kept_recipients; DROP TABLE kept_outbox");
    });
    await expectEqual();
    // Later, the window moves on by a minute and a half: still equal.
    clock.advance(90_000);
    expect((await listHealth(app.deps)).delivered).toBe(await recountSent(new Date(clock.now().getTime() - windowMs)));
  });

  it("a send's unsubscribes in the sends list and in stats equal a recount of its recipients", async () => {
    const db = app.deps.db;
    const next = seededRandom(70);
    const day = 24 * 60 * 60 * 1000;
    const start = clock.now().getTime() - 20 * day;
    await db.query(
      "INSERT INTO subscribers (email, status, source) SELECT 'left-' || n || '@example.com', 'active', 'import' FROM generate_series(1, 200) AS n",
    );
    const { rows: people } = await db.query<{ id: number }>("SELECT id FROM subscribers WHERE email LIKE 'left-%' ORDER BY id");
    // Three sends four days apart, each to most of the list, its rows sent over its first hours.
    for (let s = 0; s < 3; s++) {
      const at = new Date(start + s * 4 * day);
      const { rows: posts } = await db.query<{ id: number }>(
        "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ($1, '<p>Hi.</p>', 'Hi', true, $2) RETURNING id",
        [`Left ${String(s)}`, at],
      );
      const { rows: sends } = await db.query<{ id: number }>(
        "INSERT INTO newsletter_sends (post_id, status, subject, html, text, created_at, started_at, finished_at) VALUES ($1, 'sent', 'Hi', '', '', $2, $2, $2) RETURNING id",
        [posts[0]?.id, at],
      );
      for (const person of people) {
        if (next() < 0.15) continue;
        const sent = next() < 0.9;
        await db.query("INSERT INTO newsletter_recipients (send_id, subscriber_id, status, sent_at) VALUES ($1, $2, $3, $4)", [
          sends[0]?.id,
          person.id,
          sent ? "sent" : "failed",
          sent ? new Date(at.getTime() + next() * 6 * 60 * 60 * 1000) : null,
        ]);
      }
    }
    // People leave at any time over the sends (some before their row was sent); some come back or complain later.
    for (const person of people) {
      if (next() < 0.5) continue;
      const status = next() < 0.8 ? "unsubscribed" : next() < 0.5 ? "pending" : "complained";
      await db.query("UPDATE subscribers SET status = $2, unsubscribed_at = $3 WHERE id = $1", [
        person.id,
        status,
        new Date(start - day + next() * 14 * day),
      ]);
    }

    const listed = new Map((await listSends(app.deps)).map((send) => [send.id, send.unsubscribed]));
    const recounted = await recountSendUnsubscribes();
    for (const [id, unsubscribed] of recounted) expect(listed.get(id), `send ${String(id)}`).toBe(unsubscribed);
    expect([...recounted.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

    const stats = await getStats(app.deps, {});
    const statsRecount = await recountStatsUnsubscribes();
    expect(stats.newsletters.length).toBeGreaterThanOrEqual(3);
    for (const row of stats.newsletters) expect(row.unsubscribes, `send ${String(row.id)}`).toBe(statsRecount.get(row.id));
    expect(stats.newsletters.reduce((sum, row) => sum + row.unsubscribes, 0)).toBeGreaterThan(0);
  });
});
