import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProviderKeys, postmarkRequest, snsRequest, type ProviderKeys, type SignedRequest } from "../../../tests/support/email-event-signing.ts";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { startSend } from "../../core/newsletter/newsletter-sends.ts";
import { runSendWorker } from "../../core/newsletter/newsletter-worker.ts";

// What providers really post, beyond the shapes of email-events.routes.test.ts: SES's rewritten
// Message-ID, SNS's late retries, Postmark's Delivery and its 64-bit IDs. Signatures made here.
const clock = createFakeClock(new Date());
let keys: ProviderKeys;
let app: TestApp;
beforeAll(async () => {
  keys = await makeProviderKeys();
  app = await createTestApp({ clock, env: keys.env, snsFetch: keys.snsFetch });
}, 300_000);
afterAll(async () => {
  await app.close();
  await keys.close();
});

const deliver = (provider: string, request: SignedRequest) =>
  app.call(`/api/email-events/${provider}`, {
    method: "POST",
    headers: { ...request.headers, "content-type": "application/json" },
    body: request.body,
  });

async function addSubscribers(...emails: string[]): Promise<void> {
  await app.deps.db.query("INSERT INTO subscribers (email, status, source, confirmed_at) SELECT unnest($1::text[]), 'active', 'import', $2", [
    emails,
    new Date(clock.now().getTime() - 60 * 24 * 3600 * 1000),
  ]);
}

async function eventsOf(email: string) {
  const { rows } = await app.deps.db.query<{ type: string; event_id: string; send_id: number | null; message_ref: string | null }>(
    "SELECT e.type, e.event_id, e.send_id, e.message_ref FROM email_events e JOIN subscribers s ON s.id = e.subscriber_id WHERE s.email = $1 ORDER BY e.id",
    [email],
  );
  return rows;
}

async function statusOf(email: string): Promise<string | undefined> {
  const { rows } = await app.deps.db.query<{ status: string }>("SELECT status FROM subscribers WHERE email = $1", [email]);
  return rows[0]?.status;
}

describe("what providers really post", () => {
  it("ses: a complaint is counted against its send though SES replaced the Message-ID (matched on the original headers SES includes)", async () => {
    await app.deps.db.query("UPDATE subscribers SET status = 'unsubscribed' WHERE status = 'active'");
    await addSubscribers("rewritten@example.com", "kept@example.com");
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Margins', '<p>Thin.</p>', 'Thin', true, $1) RETURNING id",
      [clock.now()],
    );
    const send = await startSend(app.deps, rows[0]?.id as number);
    expect(await runSendWorker(app.deps, send.id)).toMatchObject({ sent: 2 });

    /** SES's notification of `mail` as sent: SES's own Message-ID, and the original headers (`originalId` kept there or not). */
    const complaintOf = (mail: CaughtMail, keepOriginal: boolean) => {
      const sesId = `<0100018c${String(Math.random()).slice(2, 12)}-000000@email.amazonses.com>`;
      const names = ["From", "To", "Subject", "Message-ID", "List-Unsubscribe", "List-Unsubscribe-Post", "List-Id", "Feedback-ID"];
      const headers = names.map((name) => ({ name, value: name === "Message-ID" && !keepOriginal ? sesId : (mail.header(name) ?? "") }));
      return snsRequest(keys, {
        at: clock.now(),
        message: {
          notificationType: "Complaint",
          complaint: { complainedRecipients: [{ emailAddress: mail.to[0] }], complaintFeedbackType: "abuse", timestamp: clock.now().toISOString() },
          mail: {
            messageId: sesId.slice(1, sesId.indexOf("@")),
            headersTruncated: false,
            headers,
            commonHeaders: { from: [mail.header("From")], to: mail.to, messageId: sesId, subject: mail.subject },
          },
        },
      });
    };
    const rewritten = app.mail.to("rewritten@example.com")[0] as CaughtMail;
    const kept = app.mail.to("kept@example.com")[0] as CaughtMail;
    expect(rewritten.header("Feedback-ID")).toMatch(new RegExp(`^${String(send.id)}:`));
    expect((await deliver("ses", complaintOf(rewritten, false))).status).toBe(204);
    expect((await deliver("ses", complaintOf(kept, true))).status).toBe(204);
    expect(await eventsOf("rewritten@example.com")).toEqual([
      { type: "complaint", event_id: expect.any(String) as string, send_id: send.id, message_ref: rewritten.messageId },
    ]);
    expect(await eventsOf("kept@example.com")).toEqual([
      { type: "complaint", event_id: expect.any(String) as string, send_id: send.id, message_ref: kept.messageId },
    ]);
  });

  it("ses: SNS's retry of a notification signed 2 hours ago is heard on its signature, and counts once however often it comes", async () => {
    await addSubscribers("retried@example.com");
    const twoHoursAgo = new Date(clock.now().getTime() - 2 * 3600 * 1000);
    const retry = snsRequest(keys, {
      at: twoHoursAgo,
      message: {
        notificationType: "Bounce",
        bounce: { bounceType: "Permanent", bouncedRecipients: [{ emailAddress: "retried@example.com" }], timestamp: twoHoursAgo.toISOString() },
        mail: { messageId: "0100018c-old" },
      },
    });
    expect((await deliver("ses", retry)).status).toBe(204);
    expect((await deliver("ses", retry)).status).toBe(204);
    expect(await statusOf("retried@example.com")).toBe("bounced");
    expect(await eventsOf("retried@example.com")).toHaveLength(1);
    // The signature still has teeth when old: the same retry with another address in it is refused.
    await addSubscribers("forged@example.com");
    expect((await deliver("ses", { ...retry, body: retry.body.replace("retried@example.com", "forged@example.com") })).status).toBe(401);
    expect(await statusOf("forged@example.com")).toBe("active");
  });

  it("postmark: the Delivery webhook's documented payload is heard (it has Recipient, no ID nor Email)", async () => {
    await addSubscribers("john@example.com");
    // Postmark's sample Delivery webhook (postmarkapp.com/developer/webhooks/delivery-webhook).
    const sample = {
      RecordType: "Delivery",
      ServerID: 23,
      MessageStream: "outbound",
      MessageID: "00000000-0000-0000-0000-000000000000",
      Recipient: "john@example.com",
      Tag: "welcome-email",
      DeliveredAt: "2019-11-05T16:33:54.9070259Z",
      Details: "Test delivery webhook details",
      Metadata: { a_key: "a_value", b_key: "b_value" },
    };
    expect((await deliver("postmark", postmarkRequest(keys, sample))).status).toBe(204);
    expect((await deliver("postmark", postmarkRequest(keys, sample))).status).toBe(204);
    expect(await eventsOf("john@example.com")).toEqual([
      { type: "delivered", event_id: "Delivery:00000000-0000-0000-0000-000000000000:john@example.com", send_id: null, message_ref: null },
    ]);
  });

  it("postmark: two bounces whose IDs differ above 2^53 are two bounces (IDs are read as the digits sent)", async () => {
    await addSubscribers("first-big@example.com", "second-big@example.com");
    const bounce = (id: string, email: string) => ({
      ...postmarkRequest(keys, {}),
      // Written by hand: JSON.stringify of a number cannot hold these IDs.
      body: `{"RecordType":"Bounce","ID":${id},"Type":"HardBounce","TypeCode":1,"Email":"${email}","Details":"smtp;550 5.1.1 no such user","BouncedAt":"${clock.now().toISOString()}"}`,
    });
    expect(Number("4323372036854775807")).toBe(Number("4323372036854775808"));
    expect((await deliver("postmark", bounce("4323372036854775807", "first-big@example.com"))).status).toBe(204);
    expect((await deliver("postmark", bounce("4323372036854775808", "second-big@example.com"))).status).toBe(204);
    expect(await statusOf("first-big@example.com")).toBe("bounced");
    expect(await statusOf("second-big@example.com")).toBe("bounced");
    expect((await eventsOf("second-big@example.com")).map((event) => event.event_id)).toEqual(["Bounce:4323372036854775808"]);
  });
});
