import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { multipartBody } from "../../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import type { SqlExecutor } from "../db/sql-executor.ts";
import type { Post } from "../posts/post.schema.ts";
import type { NewsletterSend } from "./newsletter.schema.ts";
import { prepareBatch, prepareDueSends, prepareSend } from "./newsletter-prepare.ts";
import { cancelSend, sendStatus, startSend } from "./newsletter-sends.ts";
import { runBackgroundSends } from "./newsletter-background.ts";
import { runDueSends } from "./newsletter-watchdog.ts";

// Real databases and a real SMTP sink; the clock is a fake one that stands still, so a budget
// (`budgetMs: 0`) ends after exactly one batch, and every page the test marks live answers 200.
const clock = createFakeClock(new Date("2026-03-02T06:00:00Z"));
const live = new Set<string>();

describe.each(featureDatabaseTargets)("a send's recipients fixed in batches on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({
      db: testDb.db,
      clock,
      checkPage: (url) => Promise.resolve(live.has(url) ? { live: true, answer: "200" } : { live: false, answer: "404" }),
    });
    admin = await app.adminHeaders();
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });
  afterEach(async () => {
    live.clear();
    app.mail.clear();
    await testDb.db.exec("DELETE FROM newsletter_sends; DELETE FROM subscribers; DELETE FROM posts");
  });

  /** Subscribers in this order (ascending ids), each with its status; returns their ids by address. */
  const addSubscribers = async (people: [string, string][]) => {
    const ids = new Map<string, number>();
    for (const [email, status] of people) {
      const { rows } = await app.deps.db.query<{ id: number }>(
        "INSERT INTO subscribers (email, status, source) VALUES ($1, $2, 'form') RETURNING id",
        [email, status],
      );
      ids.set(email, (rows[0] as { id: number }).id);
    }
    return ids;
  };
  const setStatus = (email: string, status: string) => app.deps.db.query("UPDATE subscribers SET status = $2 WHERE email = $1", [email, status]);
  const livePost = async (title: string) => {
    const { body, contentType } = await multipartBody({ content: "<p>Count the months.</p>", title, published: "true" });
    const response = await app.call("/api/blog-posts", { method: "POST", headers: { ...admin, "content-type": contentType }, body });
    const post = (await response.json()) as Post;
    live.add(`${testOrigin}${post.url}`);
    return post;
  };
  /** What the API answers about the send, both as one send and in the list. */
  const answered = async (sendId: number) => {
    const one = (await (await app.call(`/api/newsletter/sends/${String(sendId)}`, { headers: admin })).json()) as NewsletterSend;
    const listed = (await (await app.call("/api/newsletter/sends", { headers: admin })).json()) as NewsletterSend[];
    expect(listed.find((send) => send.id === sendId)).toMatchObject({ status: one.status, total: one.total, prepared: one.prepared });
    expect(one.sent + one.failed + one.skipped + one.pending).toBe(one.total);
    return one;
  };
  const fixedIds = async (sendId: number) => {
    const { rows } = await app.deps.db.query<{ subscriber_id: number }>(
      "SELECT subscriber_id FROM newsletter_recipients WHERE send_id = $1 ORDER BY subscriber_id",
      [sendId],
    );
    return rows.map((row) => row.subscriber_id);
  };
  const addresses = () => app.mail.messages.flatMap((message) => message.to).sort();

  /** The database, except that the cursor's move fails: the batch's transaction dies before its commit. */
  const crashingBeforeCommit = (db: SqlExecutor): SqlExecutor => ({
    ...db,
    exec: (sql) => db.exec(sql),
    query: (sql, params) => db.query(sql, params),
    close: () => db.close(),
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          exec: (sql) => tx.exec(sql),
          query: (sql, params) => (sql.includes("SET prepared_through") ? Promise.reject(new Error("killed")) : tx.query(sql, params)),
        }),
      ),
  });

  it("fixes exactly the audience, batch after batch, through crashes and people coming and going, and never answers a total before it is fixed", async () => {
    const ids = await addSubscribers([
      ["a@example.com", "active"],
      ["b@example.com", "active"],
      ["c@example.com", "unsubscribed"],
      ["d@example.com", "active"],
      ["e@example.com", "pending"],
      ["f@example.com", "active"],
      ["g@example.com", "active"],
      ["h@example.com", "active"],
      ["i@example.com", "active"],
    ]);
    const post = await livePost("Runway math");

    // The request fixes one batch (a budget of 0 on a clock that stands still) and answers at once.
    const started = await startSend(app.deps, post.id, { prepare: { budgetMs: 0, batchSize: 2 } });
    expect(started).toMatchObject({ status: "preparing", total: 0, prepared: 2, pending: 0, sent: 0 });
    expect(await answered(started.id)).toMatchObject({ status: "preparing", total: 0, prepared: 2 });
    expect(await fixedIds(started.id)).toEqual([ids.get("a@example.com"), ids.get("b@example.com")]);

    // Between batches: one already fixed leaves (their row stays; the worker skips them), one not
    // yet fixed leaves (never fixed), one waiting for their confirmation confirms (fixed with their
    // batch), and someone new subscribes (after the start: not added, as before batches).
    await setStatus("b@example.com", "unsubscribed");
    await setStatus("h@example.com", "unsubscribed");
    await setStatus("e@example.com", "active");
    await addSubscribers([["late@example.com", "active"]]);

    // A batch that dies before its commit leaves nothing behind: no row, the cursor where it was.
    await expect(prepareBatch({ ...app.deps, db: crashingBeforeCommit(app.deps.db) }, started.id, 2)).rejects.toThrow("killed");
    expect(await fixedIds(started.id)).toHaveLength(2);
    expect(await answered(started.id)).toMatchObject({ status: "preparing", total: 0, prepared: 2 });

    // One more batch, then the process "crashes" (nothing kept in memory) and a new run goes on from the cursor.
    expect(await prepareBatch(app.deps, started.id, 2)).toBe("preparing");
    expect(await answered(started.id)).toMatchObject({ status: "preparing", total: 0, prepared: 4 });
    expect(await prepareDueSends(app.deps, { batchSize: 2 })).toEqual(new Map([[started.id, "queued"]]));

    const audience = ["a", "b", "d", "e", "f", "g", "i"].map((name) => ids.get(`${name}@example.com`));
    expect(await fixedIds(started.id)).toEqual(audience);
    expect(await answered(started.id)).toMatchObject({ status: "queued", total: 7, prepared: 7, pending: 7 });

    // Sent as today: b left after their row was fixed and is skipped; everyone else once.
    await runDueSends(app.deps);
    expect(addresses()).toEqual(["a", "d", "e", "f", "g", "i"].map((name) => `${name}@example.com`));
    expect(await answered(started.id)).toMatchObject({ status: "sent", total: 7, sent: 6, skipped: 1 });
  });

  it("two runs preparing the same send at once fix each recipient once", async () => {
    await addSubscribers(Array.from({ length: 11 }, (_, i): [string, string] => [`p${String(i)}@example.com`, "active"]));
    const post = await livePost("Twice at once");
    const started = await startSend(app.deps, post.id, { prepare: { budgetMs: 0, batchSize: 2 } });
    const outcomes = await Promise.all([prepareSend(app.deps, started.id, { batchSize: 2 }), prepareSend(app.deps, started.id, { batchSize: 3 })]);
    expect(outcomes.sort()).toEqual(["queued", "stopped"]);
    const { rows } = await app.deps.db.query<{ rows: number; people: number }>(
      "SELECT count(*)::int AS rows, count(DISTINCT subscriber_id)::int AS people FROM newsletter_recipients WHERE send_id = $1",
      [started.id],
    );
    expect(rows[0]).toEqual({ rows: 11, people: 11 });
    expect(await sendStatus(app.deps, started.id)).toMatchObject({ status: "queued", total: 11 });
  });

  it("cancels a send while it prepares: no batch after it, and nobody gets it", async () => {
    await addSubscribers(Array.from({ length: 6 }, (_, i): [string, string] => [`c${String(i)}@example.com`, "active"]));
    const post = await livePost("Never mind");
    const started = await startSend(app.deps, post.id, { prepare: { budgetMs: 0, batchSize: 2 } });
    expect(started).toMatchObject({ status: "preparing", prepared: 2 });

    const response = await app.call(`/api/newsletter/sends/${String(started.id)}/cancel`, { method: "POST", headers: admin });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ status: "cancelled", pending: 0 });

    expect(await prepareBatch(app.deps, started.id, 2)).toBe("stopped");
    await runDueSends(app.deps);
    expect(app.mail.messages).toHaveLength(0);
    expect(await fixedIds(started.id)).toHaveLength(2);
    // The rows fixed before the cancel are its total, every one skipped: the counts still add up.
    expect(await answered(started.id)).toMatchObject({ status: "cancelled", total: 2, skipped: 2, pending: 0 });
    await expect(cancelSend(app.deps, started.id)).rejects.toThrow("This send has finished already");
  });

  it("a small list is queued in the owner's answer, as before; the timers finish a large one and then send it", async () => {
    await addSubscribers(Array.from({ length: 5 }, (_, i): [string, string] => [`s${String(i)}@example.com`, "active"]));
    const small = await startSend(app.deps, (await livePost("Small")).id, { prepare: { batchSize: 2 } });
    expect(small).toMatchObject({ status: "queued", total: 5, prepared: 5, pending: 5 });
    await runDueSends(app.deps);
    expect(app.mail.messages).toHaveLength(5);

    app.mail.clear();
    const large = await startSend(app.deps, (await livePost("Large")).id, { prepare: { batchSize: 2, budgetMs: 0 } });
    expect(large).toMatchObject({ status: "preparing", total: 0, prepared: 2 });
    // A watchdog run whose deadline has passed starts no batch; the next one fixes the rest and sends.
    await runDueSends(app.deps, { stopClaimingAt: clock.now() });
    expect(await answered(large.id)).toMatchObject({ status: "preparing", total: 0, prepared: 2 });
    expect(app.mail.messages).toHaveLength(0);
    await runDueSends(app.deps);
    expect(addresses()).toHaveLength(5);
    expect(await answered(large.id)).toMatchObject({ status: "sent", total: 5, sent: 5 });
  });

  it("a Background Function that runs out of time while a send prepares starts the next run", async () => {
    await addSubscribers(Array.from({ length: 4 }, (_, i): [string, string] => [`b${String(i)}@example.com`, "active"]));
    const send = await startSend(app.deps, (await livePost("Handed on")).id, { prepare: { batchSize: 2, budgetMs: 0 } });
    let kicked = 0;
    const kick = () => {
      kicked += 1;
    };
    const run = await runBackgroundSends(app.deps, { budgetMs: 0, kick });
    expect(run.continued).toBe(true);
    expect(kicked).toBe(1);
    // The next run has time: it fixes the rest and sends, and has nothing to hand on.
    expect((await runBackgroundSends(app.deps, { budgetMs: 60_000, kick })).continued).toBe(false);
    expect(await answered(send.id)).toMatchObject({ status: "sent", total: 4, sent: 4 });
  });
});
