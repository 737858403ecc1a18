import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { eraseSubscriber } from "../subscribers/subscriber-privacy.ts";
import { newsletterMessageId } from "./newsletter-message.ts";
import { claimBatch, dueSends, markRetry, markSent, renewLease } from "./newsletter-queue.ts";
import { noRecipientsMessage, sendStatus, startSend } from "./newsletter-sends.ts";
import { runBackgroundSends } from "./newsletter-background.ts";
import { runDueSends } from "./newsletter-watchdog.ts";
import { runSendWorker } from "./newsletter-worker.ts";

// Real databases (PGlite always; PostgreSQL through pg and the Neon driver with TEST_DATABASE_URL)
// and a real SMTP sink: what each address received is read back from the wire.
const clock = createFakeClock();
const leaseMs = 60_000;

/** Addresses the sink refuses: 450 (try later) or 550 (no such mailbox). */
const refusals = new Map<string, 450 | 550>();

async function addSubscribers(app: TestApp, count: number, status = "active", prefix = "reader"): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, i) => `${prefix}${String(i)}@example.com`);
  await app.deps.db.query("INSERT INTO subscribers (email, status, source) SELECT unnest($1::text[]), $2, 'import'", [emails, status]);
  return emails;
}

async function addPost(app: TestApp, title: string, published = true): Promise<number> {
  const { rows } = await app.deps.db.query<{ id: number }>(
    `INSERT INTO posts (title, content, excerpt, published, published_at)
     VALUES ($1, '<p>Read <a href="/blog/">the blog</a>.</p><img src="/api/files/images/cover.png" alt="Cover">', 'The short of it', $2, $3)
     RETURNING id`,
    [title, published, published ? clock.now() : null],
  );
  return (rows[0] as { id: number }).id;
}

async function recipientsOf(app: TestApp, sendId: number) {
  const { rows } = await app.deps.db.query<{
    status: string;
    attempts: number;
    last_error: string | null;
    message_id: string | null;
    email: string | null;
  }>(
    `SELECT r.status, r.attempts, r.last_error, r.message_id, s.email
       FROM newsletter_recipients r LEFT JOIN subscribers s ON s.id = r.subscriber_id WHERE r.send_id = $1 ORDER BY r.id`,
    [sendId],
  );
  return rows;
}

const countsAddUp = (status: Awaited<ReturnType<typeof sendStatus>>) =>
  expect(status.sent + status.failed + status.skipped + status.pending).toBe(status.total);

const addressesOf = (messages: CaughtMail[]) => messages.flatMap((message) => message.to).sort();

describe.each(featureDatabaseTargets)("sending a post to the list on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let postNumber = 0;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db, clock, smtp: { reject: (address) => refusals.get(address) } });
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });
  afterEach(async () => {
    refusals.clear();
    app.mail.clear();
    await testDb.db.exec("DELETE FROM newsletter_sends; DELETE FROM subscribers; DELETE FROM posts");
  });
  const newPost = (published = true) => addPost(app, `Post ${String(++postNumber)}: cash flow`, published);

  it("sends every active subscriber exactly one email, and nobody else", async () => {
    const active = await addSubscribers(app, 12);
    await addSubscribers(app, 2, "pending", "pending");
    await addSubscribers(app, 2, "unsubscribed", "gone");
    const postId = await newPost();
    const send = await startSend(app.deps, postId);
    expect(send).toMatchObject({ postId, status: "queued", total: 12, pending: 12, sent: 0 });

    const run = await runSendWorker(app.deps, send.id, { batchSize: 5, concurrency: 3 });
    expect(run).toMatchObject({ sent: 12, failed: 0, skipped: 0, finished: true });
    expect(addressesOf(app.mail.messages)).toEqual([...active].sort());

    const status = await sendStatus(app.deps, send.id);
    expect(status).toMatchObject({ status: "sent", total: 12, sent: 12, pending: 0 });
    expect(status.startedAt).not.toBeNull();
    expect(status.finishedAt).not.toBeNull();
    countsAddUp(status);

    // The email: the title, the excerpt as preheader, absolute URLs, the way back, one-click unsubscribe.
    const [first] = app.mail.to("reader0@example.com") as [CaughtMail];
    const { rows } = await testDb.db.query<{ id: number }>("SELECT id FROM subscribers WHERE email = 'reader0@example.com'");
    const subscriberId = (rows[0] as { id: number }).id;
    expect(first.subject).toBe(`Post ${String(postNumber)}: cash flow`);
    expect(first.messageId).toBe(newsletterMessageId(app.deps, send.id, subscriberId));
    expect(first.html).toContain("The short of it");
    // Links go through the click redirect (CLICK_TRACKING is on by default), which keeps the original.
    expect(first.html).toContain(`href="${testOrigin}/api/newsletter/click?l=`);
    const { rows: links } = await testDb.db.query<{ url: string }>("SELECT url FROM newsletter_links WHERE send_id = $1 ORDER BY position", [
      send.id,
    ]);
    expect(links[0]?.url).toBe(`${testOrigin}/blog/`);
    expect(first.html).toContain(`src="${testOrigin}/api/files/images/cover.png"`);
    const { rows: slugs } = await testDb.db.query<{ slug: string }>("SELECT slug FROM posts WHERE id = $1", [postId]);
    expect(links.map((link) => link.url)).toContain(`${testOrigin}/blog/${(slugs[0] as { slug: string }).slug}`);
    expect(first.text).toContain(`${testOrigin}/blog/${(slugs[0] as { slug: string }).slug}`);
    expect(first.text).toContain("Read it on the site");
    expect(first.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    // The list's identity for filters and Gmail's complaint reports; an opaque Message-ID (no row numbers).
    expect(first.header("List-Id")).toBe("No Filter <newsletter.localhost>");
    expect(first.header("Feedback-ID")).toBe(`${String(send.id)}:newsletter:bulk:localhost`);
    expect(first.messageId).toMatch(/^<[\w-]{43}@localhost>$/);
    expect(first.header("Auto-Submitted")).toBeUndefined();
    expect(first.header("List-Unsubscribe")).toMatch(new RegExp(`^<${testOrigin}/api/newsletter/unsubscribe\\?token=u\\.${String(subscriberId)}\\.`));
    expect(first.html).not.toContain("__RECIPIENT_TOKEN__");
    // Each subscriber's export lists it.
    const { rows: records } = await testDb.db.query("SELECT 1 FROM subscriber_emails WHERE kind = 'newsletter' AND subscriber_id = $1", [
      subscriberId,
    ]);
    expect(records).toHaveLength(1);

    // A worker run on a finished send adds nothing (a replayed run).
    expect(await runSendWorker(app.deps, send.id)).toMatchObject({ sent: 0, finished: true });
    expect(app.mail.messages).toHaveLength(12);
  });

  it("answers 400, and keeps the post sendable, when nobody is subscribed", async () => {
    const postId = await newPost();
    await addSubscribers(app, 1, "unsubscribed", "gone");
    await expect(startSend(app.deps, postId)).rejects.toMatchObject({ status: 400, message: noRecipientsMessage });
    await addSubscribers(app, 1);
    expect(await startSend(app.deps, postId)).toMatchObject({ total: 1, status: "queued" });
  });

  it("answers 409 for a second send of the same post, 400 for a draft and 404 for a missing post", async () => {
    await addSubscribers(app, 1);
    const postId = await newPost();
    await startSend(app.deps, postId);
    await expect(startSend(app.deps, postId)).rejects.toMatchObject({ status: 409 });
    await expect(startSend(app.deps, await newPost(false))).rejects.toMatchObject({ status: 400 });
    await expect(startSend(app.deps, 999_999)).rejects.toMatchObject({ status: 404 });
    const { rows } = await testDb.db.query("SELECT 1 FROM newsletter_sends WHERE post_id = $1", [postId]);
    expect(rows).toHaveLength(1);
  });

  it("skips whoever unsubscribed or was erased between the start and their turn", async () => {
    await addSubscribers(app, 4);
    const send = await startSend(app.deps, await newPost());
    await testDb.db.query("UPDATE subscribers SET status = 'unsubscribed' WHERE email = 'reader1@example.com'");
    const { rows } = await testDb.db.query<{ id: number }>("SELECT id FROM subscribers WHERE email = 'reader2@example.com'");
    await eraseSubscriber(app.deps, (rows[0] as { id: number }).id);

    expect(await runSendWorker(app.deps, send.id)).toMatchObject({ sent: 2, skipped: 2, finished: true });
    expect(addressesOf(app.mail.messages)).toEqual(["reader0@example.com", "reader3@example.com"]);
    const status = await sendStatus(app.deps, send.id);
    expect(status).toMatchObject({ total: 4, sent: 2, skipped: 2, failed: 0, pending: 0, status: "sent" });
    countsAddUp(status);
  });

  it("hands a crashed worker's batch over again once its lease runs out, with the same Message-IDs", async () => {
    await addSubscribers(app, 10);
    const send = await startSend(app.deps, await newPost());
    // A worker claims 3 rows, gets one message onto the wire, and dies before marking anything.
    const crashed = await claimBatch(app.deps, send.id, 3, leaseMs);
    expect(crashed).toHaveLength(3);
    const onTheWire = crashed[0] as (typeof crashed)[number];
    await app.deps.mail.send({
      to: onTheWire.email as string,
      subject: "in flight",
      html: "<p>in flight</p>",
      text: "in flight",
      messageId: newsletterMessageId(app.deps, send.id, onTheWire.subscriberId as number),
    });

    // Another worker sends the rest but leaves the leased rows alone while the lease lives.
    expect(await runSendWorker(app.deps, send.id)).toMatchObject({ sent: 7, finished: false });
    let status = await sendStatus(app.deps, send.id);
    expect(status).toMatchObject({ sent: 7, pending: 3, status: "sending" });
    countsAddUp(status);

    clock.advance(leaseMs);
    expect(await runSendWorker(app.deps, send.id)).toMatchObject({ sent: 3, finished: true });
    status = await sendStatus(app.deps, send.id);
    expect(status).toMatchObject({ sent: 10, pending: 0, status: "sent" });

    // Nobody missed; the one duplicate is the message that was on the wire, with the same Message-ID.
    const all = await recipientsOf(app, send.id);
    for (const row of all) expect(app.mail.to(row.email as string).length).toBeGreaterThanOrEqual(1);
    const twice = app.mail.to(onTheWire.email as string);
    expect(twice).toHaveLength(2);
    expect(new Set(twice.map((message) => message.messageId)).size).toBe(1);
    expect(app.mail.messages).toHaveLength(11);
    expect(all.filter((row) => row.attempts === 2)).toHaveLength(3);
  });

  it("retries a 4xx refusal with backoff and gives up on a 5xx with the server's reply", async () => {
    await addSubscribers(app, 4);
    refusals.set("reader1@example.com", 450);
    refusals.set("reader2@example.com", 550);
    const send = await startSend(app.deps, await newPost());
    expect(await runSendWorker(app.deps, send.id, { maxAttempts: 2 })).toMatchObject({ sent: 2, failed: 1, retried: 1, finished: false });
    let rows = await recipientsOf(app, send.id);
    expect(rows.find((row) => row.email === "reader2@example.com")).toMatchObject({
      status: "failed",
      last_error: expect.stringContaining("550") as string,
    });
    expect(rows.find((row) => row.email === "reader1@example.com")).toMatchObject({
      status: "pending",
      last_error: expect.stringContaining("450") as string,
    });

    // Not before its backoff; then once more, and after maxAttempts the refusal is final.
    expect(await runSendWorker(app.deps, send.id, { maxAttempts: 2 })).toMatchObject({ sent: 0, retried: 0, finished: false });
    clock.advance(60_000);
    expect(await runSendWorker(app.deps, send.id, { maxAttempts: 2 })).toMatchObject({ failed: 1, finished: true });
    rows = await recipientsOf(app, send.id);
    expect(rows.find((row) => row.email === "reader1@example.com")).toMatchObject({ status: "failed", attempts: 2 });
    const status = await sendStatus(app.deps, send.id);
    expect(status).toMatchObject({ total: 4, sent: 2, failed: 2, status: "sent" });
    countsAddUp(status);
  });

  it("a 4xx refusal that clears is sent on the retry", async () => {
    await addSubscribers(app, 2);
    refusals.set("reader0@example.com", 450);
    const send = await startSend(app.deps, await newPost());
    expect(await runSendWorker(app.deps, send.id)).toMatchObject({ sent: 1, retried: 1, finished: false });
    refusals.clear();
    clock.advance(60_000);
    expect(await runSendWorker(app.deps, send.id)).toMatchObject({ sent: 1, finished: true });
    expect(addressesOf(app.mail.messages)).toEqual(["reader0@example.com", "reader1@example.com"]);
  });

  it("two workers in parallel send each recipient once", async () => {
    const active = await addSubscribers(app, 120);
    const send = await startSend(app.deps, await newPost());
    const runs = await Promise.all([
      runSendWorker(app.deps, send.id, { batchSize: 7, concurrency: 2 }),
      runSendWorker(app.deps, send.id, { batchSize: 7, concurrency: 2 }),
    ]);
    expect(runs[0].sent + runs[1].sent).toBe(120);
    expect(addressesOf(app.mail.messages)).toEqual([...active].sort());
    const status = await sendStatus(app.deps, send.id);
    expect(status).toMatchObject({ total: 120, sent: 120, pending: 0, status: "sent" });
    if (target.driver !== "pglite") {
      // On a server both really claimed: SKIP LOCKED split the rows between them.
      expect(runs[0].sent).toBeGreaterThan(0);
      expect(runs[1].sent).toBeGreaterThan(0);
    }
  });

  it("keeps every slot busy across batches: the next batch is claimed while the last rows of one are on their way", async () => {
    const active = await addSubscribers(app, 12);
    const send = await startSend(app.deps, await newPost());
    // Each hand-over waits until three are on their way at once: a worker that let its slots run
    // dry at a batch's end would leave the last ones waiting, and the test fails on its timeout.
    // No real-time give-up: it was 5 s, and on a loaded machine a correct worker ran out of it.
    const concurrency = 3;
    let onTheirWay = 0;
    let full: (() => void) | undefined;
    let allOnTheirWay = new Promise<void>((resolve) => (full = resolve));
    const gatedDeps = {
      ...app.deps,
      mail: {
        ...app.deps.mail,
        send: async (message: Parameters<typeof app.deps.mail.send>[0]) => {
          const gate = allOnTheirWay;
          if (++onTheirWay === concurrency) {
            full?.();
            allOnTheirWay = new Promise<void>((resolve) => (full = resolve));
          }
          await gate;
          onTheirWay -= 1;
          return app.deps.mail.send(message);
        },
      },
    };
    expect(await runSendWorker(gatedDeps, send.id, { batchSize: 4, concurrency })).toMatchObject({ sent: 12, finished: true });
    expect(addressesOf(app.mail.messages)).toEqual([...active].sort());
  });

  it("a slow batch keeps its rows: the worker renews the lease of rows still in flight, so no other worker claims them", async () => {
    const active = await addSubscribers(app, 10);
    const send = await startSend(app.deps, await newPost());
    const claimedAt = clock.now().getTime();
    // A slow SMTP server: each hand-over takes 20 s (on the fake clock), the whole batch 200 s — over three leases.
    let handedOver = 0;
    let intruder: Awaited<ReturnType<typeof claimBatch>> | undefined;
    const slowDeps = {
      ...app.deps,
      mail: {
        ...app.deps.mail,
        send: async (message: Parameters<typeof app.deps.mail.send>[0]) => {
          clock.advance(20_000);
          if (++handedOver === 6) {
            // 120 s after the claim: without renewal the lease (60 s) ran out long ago.
            expect(clock.now().getTime() - claimedAt).toBeGreaterThan(leaseMs);
            intruder = await claimBatch(app.deps, send.id, 50, leaseMs);
          }
          return app.deps.mail.send(message);
        },
      },
    };
    expect(await runSendWorker(slowDeps, send.id, { batchSize: 10, concurrency: 1, leaseMs })).toMatchObject({ sent: 10, finished: true });
    expect(intruder).toEqual([]);
    expect(addressesOf(app.mail.messages)).toEqual([...active].sort());
    expect((await recipientsOf(app, send.id)).every((row) => row.attempts === 1)).toBe(true);
  });

  it("a message that hangs keeps its batch: the lease keeper renews on the app's clock while it waits", async () => {
    const [address] = await addSubscribers(app, 1);
    const send = await startSend(app.deps, await newPost());
    let release = () => {};
    const hanging = new Promise<void>((resolve) => {
      release = resolve;
    });
    let handedOver = false;
    const hangingDeps = {
      ...app.deps,
      mail: {
        ...app.deps.mail,
        send: async (message: Parameters<typeof app.deps.mail.send>[0]) => {
          handedOver = true;
          await hanging;
          return app.deps.mail.send(message);
        },
      },
    };
    const leaseUntil = async () =>
      (
        await app.deps.db.query<{ lease_until: Date }>("SELECT lease_until FROM newsletter_recipients WHERE send_id = $1", [send.id])
      ).rows[0]?.lease_until.getTime();
    const run = runSendWorker(hangingDeps, send.id, { batchSize: 10, concurrency: 1, leaseMs });
    await vi.waitFor(() => expect(handedOver).toBe(true), { timeout: 10_000 });
    const claimed = (await leaseUntil()) ?? 0;
    // Half the lease passes on the app's (fake) clock while the message hangs: the keeper renews.
    clock.advance(leaseMs / 4);
    clock.advance(leaseMs / 4);
    await vi.waitFor(async () => expect(await leaseUntil()).toBeGreaterThan(claimed), { timeout: 10_000 });
    // Past the first lease: nobody else may claim the row still in flight.
    clock.advance(leaseMs / 2 + 1000);
    expect(await claimBatch(app.deps, send.id, 10, leaseMs)).toEqual([]);
    release();
    expect(await run).toMatchObject({ sent: 1, finished: true });
    expect(addressesOf(app.mail.messages)).toEqual([address]);
  });

  it("a renewal leaves alone rows another worker took over, and rows settled or waiting for a retry", async () => {
    await addSubscribers(app, 4);
    const send = await startSend(app.deps, await newPost());
    const [first, second, third, fourth] = await claimBatch(app.deps, send.id, 4, leaseMs);
    const held = (first as NonNullable<typeof first>).leaseUntil;
    // The lease ran out and another worker claimed the first row; the second was sent; the third waits for a retry.
    clock.advance(leaseMs);
    await app.deps.db.query("UPDATE newsletter_recipients SET lease_until = $2 WHERE id = $1", [
      first?.id,
      new Date(clock.now().getTime() + leaseMs),
    ]);
    await markSent(app.deps, [{ id: (second as NonNullable<typeof second>).id, messageId: "<m@x>" }], "sent");
    await markRetry(app.deps.db, (third as NonNullable<typeof third>).id, "421 try later", new Date(clock.now().getTime() + 120_000));
    const renewed = await renewLease(
      app.deps.db,
      [first, second, third, fourth].map((row) => (row as NonNullable<typeof row>).id),
      held,
      new Date(clock.now().getTime() + leaseMs),
    );
    // Only the row still held (the fourth) is extended.
    expect(renewed).toBe(1);
    const { rows } = await app.deps.db.query<{ id: number | string; lease_until: Date | null }>(
      "SELECT id, lease_until FROM newsletter_recipients WHERE send_id = $1 ORDER BY id",
      [send.id],
    );
    expect(rows.map((row) => row.lease_until?.getTime() ?? null)).toEqual([
      clock.now().getTime() + leaseMs,
      null,
      clock.now().getTime() + 120_000,
      clock.now().getTime() + leaseMs,
    ]);
  });

  it("the watchdog takes up a send that never started, a crashed one once its lease ran out, and finishes one left unmarked", async () => {
    await addSubscribers(app, 6);
    const fresh = await startSend(app.deps, await newPost());
    const crashed = await startSend(app.deps, await newPost());
    expect(await claimBatch(app.deps, crashed.id, 10, leaseMs)).toHaveLength(6);
    // Its worker died: every row is leased, so nothing is due until the lease runs out.
    expect(await dueSends(app.deps)).toEqual([fresh.id]);
    expect((await runDueSends(app.deps)).get(fresh.id)).toMatchObject({ sent: 6, finished: true });
    expect(await dueSends(app.deps)).toEqual([]);
    clock.advance(leaseMs);
    expect(await dueSends(app.deps)).toEqual([crashed.id]);
    expect((await runDueSends(app.deps)).get(crashed.id)).toMatchObject({ sent: 6, finished: true });
    expect(app.mail.messages).toHaveLength(12);

    // A worker that died after marking its last row but before closing the send: the watchdog closes it.
    const unmarked = await startSend(app.deps, await newPost());
    const rows = await claimBatch(app.deps, unmarked.id, 10, leaseMs);
    const accepted = rows.map((row) => ({ id: row.id, messageId: newsletterMessageId(app.deps, unmarked.id, row.subscriberId as number) }));
    await markSent(app.deps, accepted, "sent before the crash");
    expect((await sendStatus(app.deps, unmarked.id)).status).toBe("sending");
    expect(await dueSends(app.deps)).toEqual([unmarked.id]);
    expect((await runDueSends(app.deps)).get(unmarked.id)).toMatchObject({ sent: 0, finished: true });
    expect(await sendStatus(app.deps, unmarked.id)).toMatchObject({ status: "sent", sent: 6 });
    expect(app.mail.messages).toHaveLength(12);
  });

  it("a replayed background run sends nothing twice, run again after it or at the same time", async () => {
    const active = await addSubscribers(app, 40);
    const send = await startSend(app.deps, await newPost());
    let kicks = 0;
    const kick = () => {
      kicks += 1;
    };
    // Netlify retries a failed run: the original and its replay at once, then another replay after both.
    const [first, replay] = await Promise.all([
      runBackgroundSends(app.deps, { budgetMs: 60_000, kick, batchSize: 6, concurrency: 2 }),
      runBackgroundSends(app.deps, { budgetMs: 60_000, kick, batchSize: 6, concurrency: 2 }),
    ]);
    const again = await runBackgroundSends(app.deps, { budgetMs: 60_000, kick, batchSize: 6 });
    const sentBy = (run: typeof first) => [...run.runs.values()].reduce((sum, worker) => sum + worker.sent, 0);
    expect(sentBy(first) + sentBy(replay)).toBe(40);
    expect(sentBy(again)).toBe(0);
    expect(addressesOf(app.mail.messages)).toEqual([...active].sort());
    expect(await sendStatus(app.deps, send.id)).toMatchObject({ total: 40, sent: 40, pending: 0, status: "sent" });
    // The work was done within the budget: no run started another.
    expect([first.continued, replay.continued, again.continued]).toEqual([false, false, false]);
    expect(kicks).toBe(0);
  });

  it("a background run out of time with work left starts the next run, which finishes the send", async () => {
    const active = await addSubscribers(app, 12);
    const send = await startSend(app.deps, await newPost());
    let kicks = 0;
    const kick = () => {
      kicks += 1;
    };
    // Each hand-over takes 10 s: a 25 s budget claims three batches of 2 (0 s, 20 s, and none at 40 s).
    const slowDeps = {
      ...app.deps,
      mail: {
        ...app.deps.mail,
        send: async (message: Parameters<typeof app.deps.mail.send>[0]) => {
          clock.advance(10_000);
          return app.deps.mail.send(message);
        },
      },
    };
    const cut = await runBackgroundSends(slowDeps, { budgetMs: 25_000, kick, batchSize: 2, concurrency: 1 });
    expect(cut.runs.get(send.id)).toMatchObject({ sent: 4, finished: false });
    expect(cut.continued).toBe(true);
    expect(kicks).toBe(1);
    const next = await runBackgroundSends(app.deps, { budgetMs: 25_000, kick, batchSize: 2 });
    expect(next.runs.get(send.id)).toMatchObject({ sent: 8, finished: true });
    expect(next.continued).toBe(false);
    expect(kicks).toBe(1);
    expect(addressesOf(app.mail.messages)).toEqual([...active].sort());
  });

  it("a background run that ends early leaves a retry not yet due to the watchdog instead of starting run after run", async () => {
    await addSubscribers(app, 2);
    refusals.set("reader0@example.com", 450);
    const send = await startSend(app.deps, await newPost());
    let kicks = 0;
    const run = await runBackgroundSends(app.deps, {
      budgetMs: 60_000,
      kick: () => {
        kicks += 1;
      },
    });
    expect(run.runs.get(send.id)).toMatchObject({ sent: 1, retried: 1, finished: false });
    expect(run.continued).toBe(false);
    expect(kicks).toBe(0);
  });

  it("stops claiming at the run's deadline, leaving the rest for the next run", async () => {
    await addSubscribers(app, 5);
    const send = await startSend(app.deps, await newPost());
    expect(await runSendWorker(app.deps, send.id, { stopClaimingAt: clock.now() })).toMatchObject({ sent: 0, finished: false });
    expect(app.mail.messages).toHaveLength(0);
    expect(await runSendWorker(app.deps, send.id, { stopClaimingAt: new Date(clock.now().getTime() + 1) })).toMatchObject({
      sent: 5,
      finished: true,
    });
  });
});
