import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  mailgunRequest,
  makeProviderKeys,
  postmarkRequest,
  resendRequest,
  sendgridRequest,
  snsRequest,
  type ProviderKeys,
  type SignedRequest,
} from "../../../tests/support/email-event-signing.ts";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { receiveEmailEvents } from "../../core/email-events/email-events.service.ts";
import { runSendWorker } from "../../core/newsletter/newsletter-worker.ts";

// Every provider's webhook with real signatures made here; the clock stands at the real time, as
// Svix's own check of a timestamp reads the real clock.
const clock = createFakeClock(new Date());
let keys: ProviderKeys;
let app: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  keys = await makeProviderKeys();
  app = await createTestApp({
    clock,
    env: keys.env,
    snsFetch: keys.snsFetch,
    smtp: { reject: (address) => (address.startsWith("gone") ? 550 : undefined), rejectText: () => "5.1.1 <address>: User unknown" },
  });
  admin = await app.adminHeaders();
});
afterAll(async () => {
  await app.close();
  await keys.close();
});

type Provider = "postmark" | "resend" | "mailgun" | "sendgrid" | "ses";
type Kind = "hard" | "soft" | "complaint";

const deliver = (provider: string, request: SignedRequest) =>
  app.call(`/api/email-events/${provider}`, {
    method: "POST",
    headers: { ...request.headers, "content-type": "application/json" },
    body: request.body,
  });

/** One event of `kind` about `email`, as `provider` posts it, signed now. */
function signedEvent(provider: Provider, kind: Kind, email: string, at = clock.now()): SignedRequest {
  const id = randomUUID();
  switch (provider) {
    case "postmark":
      return postmarkRequest(
        keys,
        kind === "complaint"
          ? {
              RecordType: "SpamComplaint",
              ID: Number.parseInt(id.slice(0, 8), 16),
              Type: "SpamComplaint",
              TypeCode: 512,
              Email: email,
              BouncedAt: at.toISOString(),
            }
          : {
              RecordType: "Bounce",
              ID: Number.parseInt(id.slice(0, 8), 16),
              Type: kind === "hard" ? "HardBounce" : "SoftBounce",
              TypeCode: kind === "hard" ? 1 : 4096,
              Email: email,
              MessageID: id,
              Details: "smtp;550 5.1.1 The email account that you tried to reach does not exist",
              BouncedAt: at.toISOString(),
            },
      );
    case "resend":
      return resendRequest(
        keys,
        {
          type: kind === "complaint" ? "email.complained" : "email.bounced",
          created_at: at.toISOString(),
          data: {
            email_id: id,
            to: [email],
            ...(kind !== "complaint" && {
              bounce: { message: "Mailbox does not exist", type: kind === "hard" ? "Permanent" : "Transient", subType: "General" },
            }),
          },
        },
        at,
      );
    case "mailgun":
      return mailgunRequest(
        keys,
        {
          id,
          event: kind === "complaint" ? "complained" : "failed",
          ...(kind !== "complaint" && { severity: kind === "hard" ? "permanent" : "temporary" }),
          recipient: email,
          timestamp: at.getTime() / 1000,
          "delivery-status": { message: "550 5.1.1 No such user", code: 550 },
          message: { headers: { "message-id": `${id}@mailgun.test` } },
        },
        at,
      );
    case "sendgrid":
      return sendgridRequest(
        keys,
        [
          {
            email,
            event: kind === "complaint" ? "spamreport" : "bounce",
            ...(kind !== "complaint" && { type: kind === "hard" ? "bounce" : "blocked" }),
            sg_event_id: id,
            timestamp: Math.floor(at.getTime() / 1000),
            "smtp-id": `<${id}@sendgrid.test>`,
            reason: "550 5.1.1 The email account does not exist",
            status: "5.1.1",
          },
        ],
        at,
      );
    case "ses":
      return snsRequest(keys, {
        at,
        message:
          kind === "complaint"
            ? {
                notificationType: "Complaint",
                complaint: { complainedRecipients: [{ emailAddress: email }], complaintFeedbackType: "abuse", timestamp: at.toISOString() },
                mail: { messageId: id },
              }
            : {
                notificationType: "Bounce",
                bounce: {
                  bounceType: kind === "hard" ? "Permanent" : "Transient",
                  bounceSubType: "General",
                  bouncedRecipients: [{ emailAddress: email, status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 user unknown" }],
                  timestamp: at.toISOString(),
                },
                mail: { messageId: id },
              },
      });
  }
}

async function addSubscribers(...emails: string[]): Promise<void> {
  await app.deps.db.query("INSERT INTO subscribers (email, status, source, confirmed_at) SELECT unnest($1::text[]), 'active', 'import', $2", [
    emails,
    new Date(clock.now().getTime() - 60 * 24 * 3600 * 1000),
  ]);
}

async function statusOf(email: string): Promise<{ status: string; suppressed_reason: string | null }> {
  const { rows } = await app.deps.db.query<{ status: string; suppressed_reason: string | null }>(
    "SELECT status, suppressed_reason FROM subscribers WHERE email = $1",
    [email],
  );
  return rows[0] as { status: string; suppressed_reason: string | null };
}

async function eventCount(): Promise<number> {
  const { rows } = await app.deps.db.query<{ count: number }>("SELECT count(*)::int AS count FROM email_events");
  return (rows[0] as { count: number }).count;
}

const providers: Provider[] = ["postmark", "resend", "mailgun", "sendgrid", "ses"];

describe("POST /api/email-events/{provider}", () => {
  it.each(providers)(
    "%s: a signed hard bounce makes its subscriber bounced and a signed complaint complained; a repeat counts once",
    async (provider) => {
      const bounced = `bounced-${provider}@example.com`;
      const complained = `complained-${provider}@example.com`;
      await addSubscribers(bounced, complained);
      const bounce = signedEvent(provider, "hard", bounced);
      expect((await deliver(provider, bounce)).status).toBe(204);
      expect((await deliver(provider, signedEvent(provider, "complaint", complained))).status).toBe(204);
      expect(await statusOf(bounced)).toMatchObject({ status: "bounced", suppressed_reason: expect.stringContaining(provider) as string });
      expect(await statusOf(complained)).toMatchObject({ status: "complained" });
      // The same event again (a provider's retry): heard, and nothing more recorded.
      const before = await eventCount();
      expect((await deliver(provider, bounce)).status).toBe(204);
      expect(await eventCount()).toBe(before);
    },
  );

  it.each(providers)("%s: a tampered, unsigned or wrongly signed event is 401 and changes nothing", async (provider) => {
    const email = `tampered-${provider}@example.com`;
    await addSubscribers(email);
    const good = signedEvent(provider, "hard", `someone-else-${provider}@example.com`);
    const tampered = { ...good, body: good.body.replace(`someone-else-${provider}@example.com`, email) };
    if (provider === "postmark") {
      // Postmark signs nothing: its check is the credentials in the webhook's URL.
      expect((await deliver(provider, postmarkRequest(keys, JSON.parse(tampered.body), "hooks:not-the-password"))).status).toBe(401);
    } else if (provider === "mailgun") {
      // Mailgun signs its timestamp and token: the token, used once, cannot carry another event.
      expect((await deliver(provider, good)).status).toBe(204);
      expect((await deliver(provider, tampered)).status).toBe(204);
    } else {
      expect((await deliver(provider, tampered)).status).toBe(401);
    }
    const unsigned = signedEvent(provider, "hard", email);
    const body = JSON.parse(unsigned.body) as Record<string, unknown>;
    if (provider === "ses") delete body["Signature"];
    if (provider === "mailgun") delete body["signature"];
    expect((await deliver(provider, { headers: {}, body: JSON.stringify(body) })).status).toBe(401);
    expect(await statusOf(email)).toMatchObject({ status: "active" });
  });

  // Not SES: SNS retries a notification late with its first signature (email-events.providers.test.ts).
  it.each(["resend", "mailgun", "sendgrid"] as const)("%s: an event signed more than 5 minutes ago is 401", async (provider) => {
    const email = `late-${provider}@example.com`;
    await addSubscribers(email);
    const answer = await deliver(provider, signedEvent(provider, "hard", email, new Date(clock.now().getTime() - 6 * 60 * 1000)));
    expect(answer.status).toBe(401);
    expect(await statusOf(email)).toMatchObject({ status: "active" });
  });

  it("postmark: wrong credentials are 401; malformed JSON is 400; a body over 1 MB is 413; an unknown provider is 404", async () => {
    expect((await deliver("postmark", postmarkRequest(keys, { RecordType: "Bounce" }, "hooks:wrong-password-here"))).status).toBe(401);
    const malformed = await deliver("postmark", { ...postmarkRequest(keys, {}), body: "{not json" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: "The request body must be valid JSON" });
    expect((await deliver("postmark", { ...postmarkRequest(keys, {}), body: `"${"x".repeat(1024 * 1024)}"` })).status).toBe(413);
    expect((await deliver("elasticemail", postmarkRequest(keys, {}))).status).toBe(404);
  });

  it("a provider whose secret is not set is not listened to (404)", async () => {
    const unset = { ...app.deps, webhooks: {} };
    const request = signedEvent("postmark", "hard", "nobody@example.com");
    await expect(receiveEmailEvents(unset, "postmark", { headers: new Headers(request.headers), body: request.body })).rejects.toMatchObject({
      status: 404,
    });
  });

  it("ses: signature version 1 is checked too; a certificate off SNS's hosts or another topic is 401; a subscription is confirmed on SNS's host", async () => {
    const email = "ses-v1@example.com";
    await addSubscribers(email);
    const message = {
      notificationType: "Bounce",
      bounce: { bounceType: "Permanent", bouncedRecipients: [{ emailAddress: email }] },
      mail: { messageId: "x" },
    };
    const offHost = snsRequest(keys, { at: clock.now(), message, certUrl: "https://sns.us-east-1.amazonaws.com.evil.test/cert.pem" });
    expect((await deliver("ses", offHost)).status).toBe(401);
    expect((await deliver("ses", snsRequest(keys, { at: clock.now(), message, topicArn: "arn:aws:sns:us-east-1:999999999999:other" }))).status).toBe(
      401,
    );
    expect(await statusOf(email)).toMatchObject({ status: "active" });
    expect((await deliver("ses", snsRequest(keys, { at: clock.now(), message, version: "1" }))).status).toBe(204);
    expect(await statusOf(email)).toMatchObject({ status: "bounced" });

    const subscribeUrl = "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=x&Token=token-1";
    const confirmation = snsRequest(keys, {
      type: "SubscriptionConfirmation",
      at: clock.now(),
      message: "You have chosen to subscribe",
      subscribeUrl,
    });
    expect((await deliver("ses", confirmation)).status).toBe(204);
    expect(keys.fetched).toContain(subscribeUrl);
    // The certificate was fetched from SNS's address once, then kept.
    expect(keys.fetched.filter((url) => url === keys.snsCertUrl)).toHaveLength(1);
  });

  it("three soft bounces in a row within 30 days make a subscriber bounced; two do not", async () => {
    await addSubscribers("soft@example.com");
    for (const provider of ["postmark", "mailgun"] as const) {
      expect((await deliver(provider, signedEvent(provider, "soft", "soft@example.com"))).status).toBe(204);
    }
    expect(await statusOf("soft@example.com")).toMatchObject({ status: "active" });
    expect((await deliver("sendgrid", signedEvent("sendgrid", "soft", "soft@example.com"))).status).toBe(204);
    expect(await statusOf("soft@example.com")).toMatchObject({
      status: "bounced",
      suppressed_reason: expect.stringContaining("soft bounces") as string,
    });
  });

  it("done when: a bounced and a complained subscriber get nothing from the next send, nor transactional mail, until they sign up again", async () => {
    await app.deps.db.query("UPDATE subscribers SET status = 'unsubscribed' WHERE status = 'active'");
    await addSubscribers("reader@example.com", "dead@example.com", "angry@example.com");
    expect((await deliver("mailgun", signedEvent("mailgun", "hard", "dead@example.com"))).status).toBe(204);
    expect((await deliver("sendgrid", signedEvent("sendgrid", "complaint", "angry@example.com"))).status).toBe(204);
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Runway', '<p>Months.</p>', 'Months', true, $1) RETURNING id",
      [clock.now()],
    );
    app.mail.clear();
    const started = await app.call("/api/newsletter/sends", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ postId: rows[0]?.id }),
    });
    expect(started.status).toBe(202);
    const send = (await started.json()) as { id: number };
    await runSendWorker(app.deps, send.id);
    expect(app.mail.messages.flatMap((message) => message.to)).toEqual(["reader@example.com"]);

    // Transactional mail too: a download email to the complained address is not sent.
    const { rows: downloads } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO downloads (title, description, category, file_name, file_key, file_type, file_size) VALUES ('Deck', 'A deck', 'Guides', 'deck.pdf', 'x', 'application/pdf', 10) RETURNING id",
    );
    app.mail.clear();
    const asked = await app.call(`/api/downloads/${String(downloads[0]?.id)}/request`, {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify({ email: "angry@example.com" }),
    });
    expect(asked.status).toBeLessThan(300);
    await app.deliverMail();
    expect(app.mail.messages).toHaveLength(0);
    const { rows: unsent } = await app.deps.db.query<{ status: string; last_error: string }>(
      "SELECT o.status, o.last_error FROM outbox o JOIN subscribers s ON s.id = o.subscriber_id WHERE s.email = 'angry@example.com'",
    );
    expect(unsent).toEqual([{ status: "failed", last_error: expect.stringContaining("spam") as string }]);

    // Signing up again through the double opt-in: the confirmation goes out.
    const again = await app.call("/api/newsletter/subscribe", {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify({ email: "dead@example.com" }),
    });
    expect(again.status).toBe(200);
    await app.deliverMail();
    expect(await statusOf("dead@example.com")).toMatchObject({ status: "pending" });
    expect(app.mail.messages.flatMap((message) => message.to)).toEqual(["dead@example.com"]);
  });

  it("the dashboard lists bounced and complained subscribers with the reason and date; the export keeps the event; erase removes it", async () => {
    const list = (await (await app.call("/api/newsletter/subscribers?status=complained", { headers: admin })).json()) as {
      email: string;
      status: string;
      statusReason: string;
      statusChangedAt: string;
    }[];
    expect(list.find((subscriber) => subscriber.email === "angry@example.com")).toMatchObject({
      status: "complained",
      statusReason: expect.stringContaining("spam") as string,
      statusChangedAt: expect.any(String) as string,
    });
    const { rows } = await app.deps.db.query<{ id: number }>("SELECT id FROM subscribers WHERE email = 'angry@example.com'");
    const id = String(rows[0]?.id);
    const exported = (await (await app.call(`/api/newsletter/subscribers/${id}/export`, { headers: admin })).json()) as { emailEvents: unknown[] };
    expect(exported.emailEvents).toEqual([
      { type: "complaint", provider: "sendgrid", reason: expect.any(String) as string, occurredAt: expect.any(String) as string },
    ]);
    expect((await app.call(`/api/newsletter/subscribers/${id}`, { method: "DELETE", headers: admin })).status).toBe(204);
    const { rows: left } = await app.deps.db.query("SELECT 1 FROM email_events WHERE subscriber_id = $1", [Number(id)]);
    expect(left).toHaveLength(0);
  });
});
