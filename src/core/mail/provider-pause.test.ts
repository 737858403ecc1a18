import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import type { ProviderFailure } from "../../../tests/support/smtp-sink.ts";
import { createTestApp, testMailFrom, type TestApp } from "../../../tests/support/test-app.ts";
import { smtpMailer } from "../../adapters/smtp-mailer.ts";
import { dueSends } from "../newsletter/newsletter-queue.ts";
import { sendStatus, startSend } from "../newsletter/newsletter-sends.ts";
import { runDueSends } from "../newsletter/newsletter-watchdog.ts";
import { runSendWorker } from "../newsletter/newsletter-worker.ts";
import { subscribe } from "../subscribers/subscribers.service.ts";
import { classifyDeliveryFailure, providerStreak, replyWithoutAddress } from "./delivery-failure.ts";
import type { Mailer } from "./mailer.ts";
import { deliverQueuedMail } from "./outbox-delivery.ts";
import { outboxHealth } from "./outbox-health.ts";
import { outboxPause } from "./outbox.ts";
import { placeholderAddressMessage } from "./postal-address.ts";

// Issue 27, item 3: a failure of the whole mail provider pauses the newsletter send and the outbox,
// keeps every message pending without using up its tries, and both finish once the provider is
// back — on the real SMTP sink playing each failure, and a fake clock (no sleeps).

const clock = createFakeClock();
let app: TestApp;
/** A mailer that logs in (the sink's `authUrl`), so a `535` at AUTH can be played. */
let mailer: Mailer;
let ip = 0;
/** Recipients the sink refuses at RCPT TO with a 550 (no such mailbox): a refusal about them alone. */
const refusals = new Set<string>();

beforeAll(async () => {
  app = await createTestApp({ clock, smtp: { reject: (address) => (refusals.has(address) ? 550 : undefined) } });
});
afterAll(async () => {
  await app.close();
});
// A new mailer for each test: a pooled connection from the test before would skip the greeting and the login.
beforeEach(() => {
  mailer = smtpMailer(app.mail.authUrl, testMailFrom, { maxConnections: 1 });
});
afterEach(async () => {
  await mailer.close();
  app.mail.provider(undefined);
  app.mail.clear();
  refusals.clear();
  await app.deps.db.exec("DELETE FROM newsletter_sends; DELETE FROM outbox; DELETE FROM outbox_pause; DELETE FROM subscribers; DELETE FROM posts");
});

const deps = () => ({ ...app.deps, mail: mailer });

async function addSubscribers(count: number, prefix: string): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, i) => `${prefix}${String(i)}@example.com`);
  await app.deps.db.query("INSERT INTO subscribers (email, status, source) SELECT unnest($1::text[]), 'active', 'import'", [emails]);
  return emails;
}

async function addPost(): Promise<number> {
  const { rows } = await app.deps.db.query<{ id: number }>(
    "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Cash flow', '<p>Read it.</p>', 'Short', true, $1) RETURNING id",
    [clock.now()],
  );
  return (rows[0] as { id: number }).id;
}

/** Signups queued as a request queues them (no run after the answer): their confirmations wait in the outbox. */
async function queueSignups(count: number, prefix: string): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, i) => `${prefix}${String(i)}@example.com`);
  for (const email of emails) await subscribe(app.deps, { email, clientIp: `192.0.2.${String(++ip % 250)}` });
  return emails;
}

const attemptsOf = async (table: "outbox" | "newsletter_recipients") =>
  (await app.deps.db.query<{ attempts: number; status: string }>(`SELECT attempts, status FROM ${table} ORDER BY id`)).rows;

describe("classifying a failure by the SMTP step it happened at", () => {
  it("reads nodemailer's connection, greeting, login and MAIL FROM failures as the provider's; a recipient's 5xx as permanent, 4xx as transient", () => {
    const error = (fields: Record<string, unknown>) => Object.assign(new Error("failed"), fields);
    expect(classifyDeliveryFailure(error({ code: "ECONNECTION", command: "CONN" })).kind).toBe("provider");
    expect(classifyDeliveryFailure(error({ code: "ETIMEDOUT", command: "CONN" })).kind).toBe("provider");
    expect(classifyDeliveryFailure(error({ code: "EAUTH", command: "AUTH PLAIN", responseCode: 535 })).kind).toBe("provider");
    expect(classifyDeliveryFailure(error({ code: "EENVELOPE", command: "MAIL FROM", responseCode: 554 })).kind).toBe("provider");
    expect(classifyDeliveryFailure(error({ code: "EPROTOCOL", command: "CONN", responseCode: 421 })).kind).toBe("provider");
    expect(classifyDeliveryFailure(error({ code: "EENVELOPE", command: "RCPT TO", responseCode: 550 })).kind).toBe("permanent");
    expect(classifyDeliveryFailure(error({ code: "EENVELOPE", command: "RCPT TO", responseCode: 451 })).kind).toBe("transient");
    expect(classifyDeliveryFailure(error({ code: "EMESSAGE", command: "DATA", responseCode: 554 })).kind).toBe("permanent");
  });

  it("takes the addresses out of a reply, so refusals of different recipients compare equal; five in a row trip the streak", () => {
    expect(replyWithoutAddress("554 5.7.1 <a@example.com>: Relay access denied")).toBe(
      replyWithoutAddress("554 5.7.1 <b@example.org>: Relay access denied"),
    );
    const streak = providerStreak<number>();
    const refusal = (address: string) => ({ kind: "permanent" as const, reason: `550 5.1.1 <${address}>: no such user` });
    expect(streak.record(1, "a@example.com", refusal("a@example.com"))).toBeUndefined();
    // The same recipient again is not a second recipient: the run starts over from it.
    expect(streak.record(2, "a@example.com", refusal("a@example.com"))).toBeUndefined();
    for (const [row, address] of [3, 4, 5].map((n) => [n, `r${String(n)}@example.com`] as const)) {
      expect(streak.record(row, address, refusal(address))).toBeUndefined();
    }
    expect(streak.record(6, "r6@example.com", refusal("r6@example.com"))).toEqual([2, 3, 4, 5, 6]);
    // Tripped: each further identical refusal is the provider's too, until a message goes through.
    expect(streak.record(7, "r7@example.com", refusal("r7@example.com"))).toEqual([7]);
    streak.reset();
    expect(streak.record(8, "r8@example.com", refusal("r8@example.com"))).toBeUndefined();
  });
});

const failures: { failure: ProviderFailure; reply: RegExp }[] = [
  { failure: "refuse", reply: /closed|ECONNRESET|socket/i },
  { failure: "greeting-421", reply: /^421 / },
  { failure: "auth-535", reply: /^535 / },
  { failure: "mail-from-554", reply: /^554 .*suspended/ },
  { failure: "rcpt-554", reply: /^554 .*Relay access denied/ },
];

describe.each(failures)("the provider failing as a whole ($failure)", ({ failure, reply }) => {
  it("pauses the newsletter send with 0 recipients failed, retries on its own, and delivers each once after recovery", async () => {
    const emails = await addSubscribers(8, `${failure}.reader`);
    const send = await startSend(app.deps, await addPost());
    app.mail.provider(failure);
    const run = await runSendWorker(deps(), send.id);
    expect(run).toMatchObject({ sent: 0, failed: 0, finished: false, paused: expect.stringMatching(reply) as string });
    const paused = await sendStatus(app.deps, send.id);
    expect(paused).toMatchObject({ status: "sending", pending: 8, failed: 0, sent: 0, pausedReason: expect.stringMatching(reply) as string });
    // The reason kept on the send names nobody.
    expect(paused.pausedReason).not.toMatch(/@example\.com/);
    // No hand-over counted against a recipient: each is as it was before the outage.
    expect((await attemptsOf("newsletter_recipients")).every((row) => row.attempts === 0 && row.status === "pending")).toBe(true);
    // Paused: the watchdog leaves it alone until its wait (1 minute) is over.
    expect(await dueSends(app.deps)).toEqual([]);
    clock.advance(60_000);
    expect(await dueSends(app.deps)).toEqual([send.id]);
    // Still down: paused again, for twice as long.
    expect((await runDueSends(deps())).get(send.id)).toMatchObject({ sent: 0, failed: 0, paused: expect.stringMatching(reply) as string });
    clock.advance(60_000);
    expect(await dueSends(app.deps)).toEqual([]);
    clock.advance(60_000);
    // Back: the next round finishes the send, every recipient once, and the pause is gone.
    app.mail.provider(undefined);
    expect((await runDueSends(deps())).get(send.id)).toMatchObject({ sent: 8, failed: 0, finished: true });
    expect(app.mail.messages.flatMap((message) => message.to).sort()).toEqual([...emails].sort());
    expect(app.mail.counts().duplicates).toBe(0);
    expect(await sendStatus(app.deps, send.id)).toMatchObject({ status: "sent", sent: 8, failed: 0, pausedReason: null, pausedUntil: null });
    // The first send of the file loads the email renderer: 10–30 s on the loaded 2-core CI machine.
  }, 90_000);

  it("pauses the outbox with every message pending, shows why, and delivers each once after recovery", async () => {
    const emails = await queueSignups(6, `${failure}.signup`);
    app.mail.provider(failure);
    const run = await deliverQueuedMail(deps(), { concurrency: 1 });
    expect(run).toMatchObject({ sent: 0, failed: 0, paused: expect.stringMatching(reply) as string });
    const health = await outboxHealth(app.deps);
    expect(health).toMatchObject({ pending: 6, failed: 0, paused: { reason: expect.stringMatching(reply) as string } });
    expect(health.paused?.reason).not.toMatch(/@example\.com/);
    expect((await attemptsOf("outbox")).every((row) => row.attempts === 0 && row.status === "pending")).toBe(true);
    // While paused a run claims nothing, even with the provider back.
    app.mail.provider(undefined);
    expect(await deliverQueuedMail(deps(), { concurrency: 1 })).toMatchObject({ sent: 0, paused: expect.any(String) as string });
    clock.advance(60_000);
    expect(await deliverQueuedMail(deps(), { concurrency: 1 })).toEqual({ sent: 6, failed: 0, retried: 0 });
    for (const email of emails) expect(app.mail.to(email)).toHaveLength(1);
    expect(await outboxHealth(app.deps)).toMatchObject({ pending: 0, failed: 0, paused: null, messages: [] });
  });
});

describe("a pause length the app is given (`npm start` with PROVIDER_PAUSE_MS, for the browser tests)", () => {
  it("is every pause's length, the send's and the outbox's, in place of 1 minute then 2", async () => {
    const given = { ...deps(), providerPauseMs: 5000 };
    await addSubscribers(3, "given.reader");
    const send = await startSend(app.deps, await addPost());
    await queueSignups(2, "given.signup");
    app.mail.provider("greeting-421");
    expect(await runSendWorker(given, send.id)).toMatchObject({ sent: 0, paused: expect.stringMatching(/^421 /) as string });
    expect(await deliverQueuedMail(given, { concurrency: 1 })).toMatchObject({ sent: 0, paused: expect.stringMatching(/^421 /) as string });
    for (const pause of [1, 2]) {
      clock.advance(4999);
      expect(await dueSends(app.deps), `pause ${String(pause)}`).toEqual([]);
      expect((await outboxPause(app.deps.db))?.until.getTime(), `pause ${String(pause)}`).toBe(clock.now().getTime() + 1);
      clock.advance(1);
      expect(await dueSends(app.deps)).toEqual([send.id]);
      // Still down: paused again for as long, where the default doubles the wait.
      expect((await runDueSends(given)).get(send.id)).toMatchObject({ sent: 0, paused: expect.any(String) as string });
      expect(await deliverQueuedMail(given, { concurrency: 1 })).toMatchObject({ sent: 0, paused: expect.any(String) as string });
    }
    clock.advance(5000);
    app.mail.provider(undefined);
    expect((await runDueSends(given)).get(send.id)).toMatchObject({ sent: 3, failed: 0, finished: true });
    expect(await deliverQueuedMail(given, { concurrency: 1 })).toEqual({ sent: 2, failed: 0, retried: 0 });
    expect(app.mail.counts().duplicates).toBe(0);
  }, 90_000);
});

describe("a refusal about one recipient", () => {
  it("fails that recipient only, with the reply, and the send goes on", async () => {
    const [, refused] = await addSubscribers(3, "mixed");
    refusals.add(refused as string);
    const send = await startSend(app.deps, await addPost());
    const run = await runSendWorker(deps(), send.id);
    expect(run).toMatchObject({ sent: 2, failed: 1, finished: true });
    expect(run.paused).toBeUndefined();
    expect(await sendStatus(app.deps, send.id)).toMatchObject({ status: "sent", failed: 1, pausedReason: null });
  });
});

describe("the seeded postal address in production", () => {
  it("refuses a newsletter send, and holds transactional mail back, naming where to set the address", async () => {
    const production = { ...deps(), production: true };
    await addSubscribers(2, "placeholder");
    await expect(startSend(production, await addPost())).rejects.toThrow(placeholderAddressMessage);
    expect(placeholderAddressMessage).toContain("Site Settings → “Postal address (shown in every email's footer)”");
    const [email] = await queueSignups(1, "placeholder.signup");
    expect(await deliverQueuedMail(production, { concurrency: 1 })).toMatchObject({ sent: 0, paused: placeholderAddressMessage });
    expect(await outboxHealth(app.deps)).toMatchObject({ pending: 1, paused: { reason: placeholderAddressMessage } });
    // The owner sets a real address: the next run sends at once.
    await app.call("/api/site-settings/mailing_address", {
      method: "PUT",
      headers: { ...(await app.adminHeaders()), "content-type": "application/json" },
      body: JSON.stringify({ value: "No Filter\n1 Market Street\nSan Francisco, CA 94105\nUSA" }),
    });
    expect(await deliverQueuedMail(production, { concurrency: 1 })).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(app.mail.to(email as string)).toHaveLength(1);
    expect((await outboxHealth(app.deps)).paused).toBeNull();
  });
});
