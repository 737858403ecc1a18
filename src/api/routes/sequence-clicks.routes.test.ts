import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickLinks, followClick as follow } from "../../../tests/support/click-links.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import type { Sequence, SequenceStepStats } from "../../core/sequences/sequence.schema.ts";
import { recipientClickToken } from "../../core/stats/newsletter-clicks.ts";
import { subscriberDataSchema } from "../../core/subscribers/subscriber-privacy.schema.ts";
import { subscribe } from "../../core/subscribers/subscribers.service.ts";
import { confirmSubscription } from "../../core/subscribers/subscription-lifecycle.ts";

/** Sequence emails' links go through the newsletter's signed click redirect (issues 29 and 31). */

const body = '<p>Read <a href="https://example.com/guide?a=1&amp;b=2">the guide</a> and <a href="https://example.org/">this</a>.</p>';

let ip = 0;

/** Saves the welcome sequence as one step with `html`; answers the step's id. */
async function welcomeStep(app: TestApp, html: string, id?: number): Promise<number> {
  const response = await app.call("/api/sequences/welcome", {
    method: "PUT",
    headers: { ...(await app.adminHeaders()), origin: testOrigin, "content-type": "application/json" },
    body: JSON.stringify({ enabled: true, steps: [{ ...(id !== undefined && { id }), delayMinutes: 0, subject: "Welcome aboard", html }] }),
  });
  expect(response.status).toBe(200);
  const sequence = (await response.json()) as Sequence;
  return sequence.steps[0]?.id as number;
}

/** Signs up and presses the confirmation link (the welcome step is queued with the confirmation); answers the id. */
async function confirmNew(app: TestApp, email: string): Promise<number> {
  ip += 1;
  await subscribe(app.deps, { email, clientIp: `198.18.7.${String(ip)}` });
  await app.deliverMail();
  const confirmation = app.mail.to(email).find((mail) => mail.subject.startsWith("Confirm"));
  const token = /\/api\/newsletter\/confirm\?token=([\w.-]+)/.exec(confirmation?.html ?? "")?.[1];
  expect(await confirmSubscription(app.deps, token ?? "")).toBe("confirmed");
  const { rows } = await app.deps.db.query<{ id: number }>("SELECT id FROM subscribers WHERE email = $1", [email]);
  return rows[0]?.id as number;
}

const welcomeMail = (app: TestApp, email: string) => app.mail.to(email).find((mail) => mail.subject === "Welcome aboard") as CaughtMail;

async function stats(app: TestApp): Promise<SequenceStepStats[]> {
  const response = await app.call("/api/sequences/welcome/stats", { headers: await app.adminHeaders() });
  expect(response.status).toBe(200);
  return (await response.json()) as SequenceStepStats[];
}

describe("sequence email click tracking", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it("sends a step's links through the signed redirect, counts every click and each person once, and the step's figures show them", async () => {
    const stepId = await welcomeStep(app, body);
    await confirmNew(app, "ann@example.com");
    await confirmNew(app, "bob@example.com");
    await app.deliverMail();
    const annMail = welcomeMail(app, "ann@example.com");
    const ann = clickLinks(annMail.html);
    const bob = clickLinks(welcomeMail(app, "bob@example.com").html);
    expect(ann).toHaveLength(2);
    expect(annMail.html).not.toContain('href="https://example.com/guide');
    // The step's links are shared by its emails; each person's token is their own.
    expect(new URL(ann[0] ?? "").searchParams.get("l")).toBe(new URL(bob[0] ?? "").searchParams.get("l"));
    expect(ann[0]).not.toBe(bob[0]);
    // The text part carries the same redirect.
    expect(annMail.text).toContain("/api/newsletter/click?l=");

    const first = await follow(app, ann[0] ?? "");
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("https://example.com/guide?a=1&b=2");
    await follow(app, ann[0] ?? "");
    await follow(app, bob[0] ?? "");
    expect((await follow(app, ann[1] ?? "")).headers.get("location")).toBe("https://example.org/");
    // A mail scanner's fetch is sent on, not counted.
    await follow(app, bob[1] ?? "", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)");

    expect(await stats(app)).toEqual([{ stepId, sent: 2, unsubscribed: 0, clicks: 4, uniqueClicks: 2 }]);
  });

  it("an email queued before its step was edited keeps its links working, and the step counts both", async () => {
    const stepId = await welcomeStep(app, '<p><a href="https://before.example/">Before</a></p>');
    await confirmNew(app, "cat@example.com");
    // Queued, not delivered yet: the owner changes the step's link meanwhile.
    expect(await welcomeStep(app, '<p><a href="https://after.example/">After</a></p>', stepId)).toBe(stepId);
    await app.deliverMail();
    await confirmNew(app, "dee@example.com");
    await app.deliverMail();
    const [cat = ""] = clickLinks(welcomeMail(app, "cat@example.com").html);
    const [dee = ""] = clickLinks(welcomeMail(app, "dee@example.com").html);
    expect((await follow(app, cat)).headers.get("location")).toBe("https://before.example/");
    expect((await follow(app, dee)).headers.get("location")).toBe("https://after.example/");
    expect(await stats(app)).toEqual([{ stepId, sent: 2, unsubscribed: 0, clicks: 2, uniqueClicks: 2 }]);
  });

  it("never redirects off the site for a tampered or unknown link, and counts no one for a tampered or borrowed recipient token", async () => {
    const stepId = await welcomeStep(app, body);
    const id = await confirmNew(app, "eve@example.com");
    await app.deliverMail();
    const [link = ""] = clickLinks(welcomeMail(app, "eve@example.com").html);
    const l = new URL(link).searchParams.get("l") ?? "";
    const r = new URL(link).searchParams.get("r") ?? "";
    const [linkId = "", linkSig = ""] = l.split(".");
    for (const query of [
      `?l=${String(Number(linkId) + 100)}.${linkSig}&r=${r}`,
      `?l=${linkId}.${linkSig.slice(0, -2)}xx&r=${r}`,
      "?l=https://evil.example/&r=x",
      "",
    ]) {
      const answer = await follow(app, `/api/newsletter/click${query}`);
      expect(answer.status, query).toBe(302);
      expect(answer.headers.get("location"), query).toBe("/");
    }
    // Genuine link, recipient tokens that are not this step's: followed, not counted as a person.
    const [, recipientSig = ""] = r.split(".");
    const borrowed = [`${String(id + 1)}.${recipientSig}`, recipientClickToken(app.deps.signer, stepId, id)];
    for (const token of borrowed) {
      const answer = await follow(app, `/api/newsletter/click?l=${l}&r=${token}`);
      expect(answer.headers.get("location")).toBe("https://example.com/guide?a=1&b=2");
    }
    expect(await stats(app)).toEqual([{ stepId, sent: 1, unsubscribed: 0, clicks: 2, uniqueClicks: 0 }]);
  });

  it("a person's export lists their sequences and the steps queued for them; erasing removes them and leaves their clicks nameless", async () => {
    await welcomeStep(app, body);
    const email = "privacy-seq@example.com";
    const id = await confirmNew(app, email);
    await app.deliverMail();
    const [link = ""] = clickLinks(welcomeMail(app, email).html);
    await follow(app, link);

    const response = await app.call(`/api/newsletter/subscribers/${String(id)}/export`, { headers: await app.adminHeaders() });
    expect(response.status).toBe(200);
    const data = subscriberDataSchema.parse(await response.json());
    expect(data.sequences).toEqual([
      {
        key: "welcome",
        enrolledAt: expect.any(String) as string,
        finishedAt: null,
        steps: [
          {
            subject: "Welcome aboard",
            queuedAt: expect.any(String) as string,
            status: "sent",
            messageId: welcomeMail(app, email).messageId,
            sentAt: expect.any(String) as string,
          },
        ],
      },
    ]);

    const count = async (sql: string) => Number((await app.deps.db.query<{ n: number }>(sql, [id])).rows[0]?.n);
    const enrollments = "SELECT count(*)::int AS n FROM sequence_enrollments WHERE subscriber_id = $1";
    const deliveries =
      "SELECT count(*)::int AS n FROM sequence_deliveries d JOIN sequence_enrollments e ON e.id = d.enrollment_id WHERE e.subscriber_id = $1";
    const clicks = "SELECT count(*)::int AS n FROM newsletter_link_clicks WHERE subscriber_id = $1";
    expect([await count(enrollments), await count(deliveries), await count(clicks)]).toEqual([1, 1, 1]);
    const clicksBefore = await count("SELECT count(*)::int AS n FROM newsletter_link_clicks WHERE $1::int IS NOT NULL");

    const erased = await app.call(`/api/newsletter/subscribers/${String(id)}`, { method: "DELETE", headers: await app.adminHeaders() });
    expect(erased.status).toBe(204);
    expect([await count(enrollments), await count(deliveries), await count(clicks)]).toEqual([0, 0, 0]);
    const { rows } = await app.deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM sequence_deliveries WHERE subject = 'Welcome aboard'");
    expect(rows[0]?.n).toBeGreaterThan(0);
    // The step's figures still add up: the click stays, without the person.
    expect(await count("SELECT count(*)::int AS n FROM newsletter_link_clicks WHERE $1::int IS NOT NULL")).toBe(clicksBefore);
  });
});

describe("CLICK_TRACKING=off", () => {
  it("keeps a sequence step's original links", async () => {
    const app = await createTestApp({ env: { CLICK_TRACKING: "off" } });
    try {
      await welcomeStep(app, body);
      await confirmNew(app, "off@example.com");
      await app.deliverMail();
      const html = welcomeMail(app, "off@example.com").html;
      expect(clickLinks(html)).toEqual([]);
      expect(html).toContain('href="https://example.com/guide?a=1&amp;b=2"');
      const { rows } = await app.deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM newsletter_links");
      expect(rows[0]?.n).toBe(0);
    } finally {
      await app.close();
    }
  });
});
