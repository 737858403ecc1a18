import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { runSendWorker } from "../newsletter/newsletter-worker.ts";
import { recordEmailEvent } from "./email-events.service.ts";
import { pauseIfOverThresholds } from "./send-health.ts";

// A send that stops itself, on a fake list with fake events; SMTP refusals at send time.
const clock = createFakeClock();
let app: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  app = await createTestApp({
    clock,
    smtp: {
      reject: (address) => (address.startsWith("gone") ? 550 : undefined),
      rejectText: (address) => `5.1.1 <${address}>: Recipient address rejected: User unknown in virtual mailbox table`,
    },
  });
  admin = await app.adminHeaders();
});
afterAll(async () => {
  await app.close();
});

interface SendJson {
  id: number;
  status: string;
  pausedReason: string | null;
  sent: number;
  pending: number;
  skipped: number;
  bounced: number;
  complained: number;
  delivered: number;
  rates: { complained: number; bounced: number };
}

const call = (path: string, method = "GET", body?: unknown) =>
  app.call(path, {
    method,
    headers: { ...admin, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

/** A fresh list of `count` active subscribers named `<prefix>-<n>@example.com` (everyone else leaves). */
async function freshList(prefix: string, count: number): Promise<void> {
  await app.deps.db.query("UPDATE subscribers SET status = 'unsubscribed', unsubscribed_at = NULL WHERE status = 'active'");
  await app.deps.db.query(
    "INSERT INTO subscribers (email, status, source) SELECT $1 || '-' || n || '@example.com', 'active', 'import' FROM generate_series(1, $2) AS n",
    [prefix, count],
  );
}

async function startSend(): Promise<SendJson> {
  const { rows } = await app.deps.db.query<{ id: number }>(
    "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Cash flow', '<p>Watch it.</p>', 'Watch it', true, $1) RETURNING id",
    [clock.now()],
  );
  const started = await call("/api/newsletter/sends", "POST", { postId: rows[0]?.id });
  expect(started.status).toBe(202);
  return (await started.json()) as SendJson;
}

/** As workers would have: the first `count` recipients' messages accepted, each with its Message-ID. */
async function markDelivered(sendId: number, count: number): Promise<string[]> {
  const { rows } = await app.deps.db.query<{ message_id: string }>(
    `UPDATE newsletter_recipients SET status = 'sent', sent_at = $3, message_id = '<m' || id || '@nofilter.test>'
      WHERE id IN (SELECT id FROM newsletter_recipients WHERE send_id = $1 ORDER BY id LIMIT $2) RETURNING message_id`,
    [sendId, count, clock.now()],
  );
  await app.deps.db.query("UPDATE newsletter_sends SET status = 'sending', started_at = $2 WHERE id = $1 AND status = 'queued'", [
    sendId,
    clock.now(),
  ]);
  return rows.map((row) => row.message_id);
}

async function complain(messageIds: string[], provider: "ses" | "postmark" = "ses"): Promise<void> {
  for (const messageId of messageIds) {
    const { rows } = await app.deps.db.query<{ email: string; send_id: number }>(
      "SELECT s.email, r.send_id FROM newsletter_recipients r JOIN subscribers s ON s.id = r.subscriber_id WHERE r.message_id = $1",
      [messageId],
    );
    const sendId = await recordEmailEvent(app.deps, provider, {
      eventId: `complaint-${messageId}`,
      type: "complaint",
      email: rows[0]?.email ?? "",
      messageId,
      reason: "abuse",
      occurredAt: clock.now(),
    });
    if (sendId !== undefined) await pauseIfOverThresholds(app.deps, sendId);
  }
}

const sendNow = async (id: number) => (await (await call(`/api/newsletter/sends/${String(id)}`)).json()) as SendJson;

describe("a send that stops itself", () => {
  it("pauses at 0.3 % complaints (not before 5), keeps the rest pending, and Resume sends each of them exactly once", async () => {
    await freshList("pause", 1200);
    const send = await startSend();
    const delivered = await markDelivered(send.id, 1000);
    await complain(delivered.slice(0, 4));
    expect(await sendNow(send.id)).toMatchObject({ status: "sending", complained: 4, pausedReason: null });
    await complain(delivered.slice(4, 5));
    const paused = await sendNow(send.id);
    expect(paused).toMatchObject({ status: "paused", complained: 5, pending: 200, delivered: 1000 });
    expect(paused.rates.complained).toBe(0.005);
    expect(paused.pausedReason).toContain("5 spam complaints, 0.5 % of the messages delivered");

    // Paused: a worker hands out nothing.
    app.mail.clear();
    await runSendWorker(app.deps, send.id);
    expect(app.mail.messages).toHaveLength(0);
    expect(await sendNow(send.id)).toMatchObject({ status: "paused", pending: 200 });

    const resumed = await call(`/api/newsletter/sends/${String(send.id)}/resume`, "POST");
    expect(resumed.status).toBe(202);
    expect(await resumed.json()).toMatchObject({ status: "sending", pausedReason: null });
    // The owner chose to go on: more complaints do not stop it again.
    await complain(delivered.slice(5, 7));
    await runSendWorker(app.deps, send.id);
    const recipients = app.mail.messages.flatMap((message) => message.to);
    expect(recipients).toHaveLength(200);
    expect(new Set(recipients).size).toBe(200);
    expect(recipients.every((address) => Number(/pause-(\d+)@/.exec(address)?.[1]) > 1000)).toBe(true);
    expect(await sendNow(send.id)).toMatchObject({ status: "sent", pending: 0, sent: 1200, complained: 7 });
    // The complainers are `complained`: the next send skips them.
    const { rows } = await app.deps.db.query<{ count: number }>("SELECT count(*)::int AS count FROM subscribers WHERE status = 'complained'");
    expect(rows[0]?.count).toBe(7);
  });

  it("one complaint in a send to 50 does not stop it; 5 % hard bounces do; Cancel skips the rest; a finished send can't be resumed or cancelled", async () => {
    await freshList("small", 50);
    const small = await startSend();
    await complain((await markDelivered(small.id, 50)).slice(0, 1));
    expect(await sendNow(small.id)).toMatchObject({ complained: 1, status: "sending" });

    await freshList("dead", 200);
    const send = await startSend();
    const delivered = await markDelivered(send.id, 100);
    for (const messageId of delivered.slice(0, 5)) {
      const { rows } = await app.deps.db.query<{ email: string }>(
        "SELECT s.email FROM newsletter_recipients r JOIN subscribers s ON s.id = r.subscriber_id WHERE r.message_id = $1",
        [messageId],
      );
      const sendId = await recordEmailEvent(app.deps, "postmark", {
        eventId: `bounce-${messageId}`,
        type: "hard_bounce",
        email: rows[0]?.email ?? "",
        messageId,
        reason: "550 5.1.1 no such user",
        occurredAt: clock.now(),
      });
      if (sendId !== undefined) await pauseIfOverThresholds(app.deps, sendId);
    }
    const paused = await sendNow(send.id);
    expect(paused).toMatchObject({ status: "paused", bounced: 5 });
    expect(paused.pausedReason).toContain("5 hard bounces");

    const cancelled = await call(`/api/newsletter/sends/${String(send.id)}/cancel`, "POST");
    expect(cancelled.status).toBe(202);
    expect(await cancelled.json()).toMatchObject({ status: "cancelled", pending: 0, skipped: 100 });
    expect((await call(`/api/newsletter/sends/${String(send.id)}/cancel`, "POST")).status).toBe(409);
    expect((await call(`/api/newsletter/sends/${String(send.id)}/resume`, "POST")).status).toBe(409);
    expect((await call(`/api/newsletter/sends/${String(small.id)}/resume`, "POST")).status).toBe(409);
    expect((await app.call(`/api/newsletter/sends/${String(small.id)}/cancel`, { method: "POST", headers: { origin: testOrigin } })).status).toBe(
      401,
    );
  });

  it("thresholds are settings: 1 % complaints lets 5 of 1000 through", async () => {
    expect((await call("/api/site-settings/complaint_pause_percent", "PUT", { value: "1" })).status).toBe(200);
    await freshList("lenient", 1000);
    const send = await startSend();
    await complain((await markDelivered(send.id, 1000)).slice(0, 5));
    expect(await sendNow(send.id)).toMatchObject({ status: "sending", complained: 5 });
    expect((await call("/api/site-settings/complaint_pause_percent", "PUT", { value: "0.3%" })).status).toBe(400);
    expect((await call("/api/site-settings/complaint_pause_percent", "PUT", { value: "" })).status).toBe(200);
  });
});

describe("an SMTP refusal of an unknown recipient at send time", () => {
  it("makes a newsletter recipient bounced, counted in the send's figures", async () => {
    await app.deps.db.query("UPDATE subscribers SET status = 'unsubscribed' WHERE status = 'active'");
    await app.deps.db.query(
      "INSERT INTO subscribers (email, status, source) VALUES ('gone-1@example.com', 'active', 'import'), ('here@example.com', 'active', 'import')",
    );
    const send = await startSend();
    await runSendWorker(app.deps, send.id);
    expect(await sendNow(send.id)).toMatchObject({ status: "sent", sent: 1, bounced: 1 });
    const { rows } = await app.deps.db.query<{ status: string; suppressed_reason: string }>(
      "SELECT status, suppressed_reason FROM subscribers WHERE email = 'gone-1@example.com'",
    );
    expect(rows[0]).toMatchObject({ status: "bounced", suppressed_reason: expect.stringContaining("5.1.1") as string });
    expect(rows[0]?.suppressed_reason).not.toContain("gone-1@example.com");
  });

  it("makes the person behind a transactional email bounced (a confirmation to an address that does not exist)", async () => {
    const answer = await app.call("/api/newsletter/subscribe", {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify({ email: "gone-2@example.com" }),
    });
    expect(answer.status).toBe(200);
    await app.deliverMail();
    const { rows } = await app.deps.db.query<{ status: string }>("SELECT status FROM subscribers WHERE email = 'gone-2@example.com'");
    expect(rows[0]?.status).toBe("bounced");
    const health = (await (await call("/api/newsletter/list-health")).json()) as { bounced: number; suppressed: { bounced: number } };
    expect(health.bounced).toBeGreaterThanOrEqual(2);
    expect(health.suppressed.bounced).toBeGreaterThanOrEqual(2);
  });
});
