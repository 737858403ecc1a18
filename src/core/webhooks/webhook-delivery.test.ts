import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { webhookHostCheck, webhookPoster } from "../../adapters/webhook-poster.ts";
import { backgroundJobs, runBackgroundJob } from "../../app/background-jobs.ts";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../../tests/support/webhook-receiver.ts";
import { deliverWebhooks, webhookRetryForMs, type PostWebhook } from "./webhook-delivery.ts";
import { ValidationError } from "../errors.ts";
import {
  checkEndpointUrl,
  createWebhookEndpoint,
  listWebhookDeliveries,
  redeliverWebhooks,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "./webhooks.service.ts";
import type { WebhookEventType } from "./webhook.schema.ts";

const minute = 60_000;

describe.each(featureDatabaseTargets)("outgoing webhooks on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let clock: FakeClock;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    testDb = await target.createMigrated();
    // Near the real time: Webhook.verify refuses a timestamp 5 minutes away from its own clock.
    clock = createFakeClock(new Date());
    app = await createTestApp({ db: testDb.db, clock, env: { ADMIN_PATH: "owner-desk-2026" } });
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    await app.deps.db.query("DELETE FROM webhook_endpoints");
    await app.deps.db.query("DELETE FROM webhook_events");
    await app.deps.db.query("DELETE FROM outbox");
    await app.deps.db.query("DELETE FROM subscribers");
  });
  afterEach(async () => {
    await receiver.close();
  });

  const addEndpoint = (events: WebhookEventType[] = ["subscriber.created", "subscriber.confirmed"], url = receiver.url) =>
    createWebhookEndpoint(app.deps, { url, description: "", events });
  const signup = (email: string) =>
    app.call("/api/newsletter/subscribe", {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
  const deliveries = async () =>
    (
      await app.deps.db.query<{ id: number; status: string; attempts: number; lease_until: Date | null }>(
        "SELECT id, status, attempts, lease_until FROM webhook_deliveries ORDER BY id",
      )
    ).rows;
  const headersOf = (index: number) => receiver.received[index]?.headers as Record<string, string>;

  it("a signup arrives within the request's own run, signed the Standard Webhooks way (verified with the standardwebhooks library)", async () => {
    const endpoint = await addEndpoint();
    expect((await signup("ada@example.com")).status).toBe(200);
    const [hook] = await receiver.waitFor(1);
    const event = new Webhook(endpoint.secret).verify(hook?.body ?? "", headersOf(0)) as { type: string; data: { email: string; status: string } };
    expect(event).toMatchObject({ type: "subscriber.created", data: { email: "ada@example.com", status: "pending" } });
    expect(headersOf(0)["webhook-id"]).toMatch(/^msg_/);
    expect((await deliveries()).map((row) => row.status)).toEqual(["sent"]);
  });

  // Before any test moves the clock: the library checks the timestamp against the real time.
  it("signs with both secrets for 24 hours after a rotation", async () => {
    const endpoint = await addEndpoint(["subscriber.created"]);
    const rotated = await rotateWebhookSecret(app.deps, endpoint.id);
    await signup("rotate@example.com");
    const [hook] = await receiver.waitFor(1);
    expect(headersOf(0)["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(new Webhook(endpoint.secret).verify(hook?.body ?? "", headersOf(0))).toBeTruthy();
    expect(new Webhook(rotated.secret).verify(hook?.body ?? "", headersOf(0))).toBeTruthy();
  });

  it("an endpoint that is down gets the event once it is back, with the same webhook-id, and it verifies", async () => {
    const endpoint = await addEndpoint(["subscriber.created"]);
    const port = Number(new URL(receiver.url).port);
    await receiver.close();
    // The signup's answer does not wait for the dead endpoint; its try fails (no answer) and is kept for a retry.
    expect((await signup("outage-back@example.com")).status).toBe(200);
    await vi.waitFor(async () => expect((await deliveries())[0]).toMatchObject({ status: "pending", attempts: 1 }));
    receiver = await startWebhookReceiver(port);
    clock.advance(30_000);
    expect(await deliverWebhooks(app.deps)).toMatchObject({ sent: 1 });
    const [hook] = await receiver.waitFor(1);
    expect(new Webhook(endpoint.secret).verify(hook?.body ?? "", headersOf(0))).toMatchObject({
      type: "subscriber.created",
      data: { email: "outage-back@example.com" },
    });
    const log = await app.deps.db.query<{ status_code: number | null }>("SELECT status_code FROM webhook_attempts ORDER BY id");
    expect(log.rows).toEqual([{ status_code: null }, { status_code: 200 }]);
  });

  it("records nothing when no endpoint wants the event, and only for the endpoints that chose it", async () => {
    expect((await signup("nobody@example.com")).status).toBe(200);
    expect((await app.deps.db.query("SELECT 1 FROM webhook_events")).rows).toHaveLength(0);
    await addEndpoint(["post.published"]);
    expect((await signup("nobody2@example.com")).status).toBe(200);
    expect((await app.deps.db.query("SELECT 1 FROM webhook_events")).rows).toHaveLength(0);
  });

  it("retries a 5xx within a minute with the same webhook-id, then it is sent", async () => {
    await addEndpoint();
    receiver.answer = { status: 503, body: "down for a moment" };
    await signup("retry@example.com");
    await receiver.waitFor(1);
    const [pending] = await deliveries();
    expect(pending).toMatchObject({ status: "pending", attempts: 1 });
    expect(new Date(pending?.lease_until ?? 0).getTime() - clock.now().getTime()).toBeLessThanOrEqual(minute);
    receiver.answer = { status: 204 };
    // Not due yet: a run now sends nothing.
    await deliverWebhooks(app.deps);
    expect(receiver.received).toHaveLength(1);
    clock.advance(30_000);
    await deliverWebhooks(app.deps);
    await receiver.waitFor(2);
    expect(headersOf(1)["webhook-id"]).toBe(headersOf(0)["webhook-id"]);
    expect((await deliveries())[0]?.status).toBe("sent");
    const log = await app.deps.db.query<{ status_code: number; response_body: string }>(
      "SELECT status_code, response_body FROM webhook_attempts ORDER BY id",
    );
    expect(log.rows).toEqual([
      { status_code: 503, response_body: "down for a moment" },
      { status_code: 204, response_body: "" },
    ]);
  });

  it("a 4xx other than 429 is final; a 429 is retried", async () => {
    await addEndpoint();
    receiver.answer = { status: 410, body: "gone" };
    await signup("final@example.com");
    expect((await deliveries())[0]?.status).toBe("failed");
    receiver.answer = { status: 429 };
    await signup("later@example.com");
    expect((await deliveries())[1]?.status).toBe("pending");
    clock.advance(10 * minute);
    receiver.answer = { status: 200 };
    await deliverWebhooks(app.deps);
    expect((await deliveries()).map((row) => row.status)).toEqual(["failed", "sent"]);
  });

  it("keeps one event id through a crash of the deliverer: the event is delivered again with the same webhook-id", async () => {
    await addEndpoint(["subscriber.created"]);
    const real = app.deps.postWebhook;
    // Delivered, then the process dies before the sent mark (no clock: nothing renews its lease).
    const dying: PostWebhook = async (request) => {
      await real(request);
      return new Promise(() => undefined);
    };
    const recorded = await app.deps.db.transaction(async (tx) => {
      const { recordWebhookEvent } = await import("./webhook-events.ts");
      await recordWebhookEvent(tx, app.deps, "subscriber.created", { id: 1, email: "crash@example.com", status: "pending" });
    });
    expect(recorded).toBeUndefined();
    void deliverWebhooks({ ...app.deps, clock: undefined, postWebhook: dying });
    await receiver.waitFor(1);
    clock.advance(3 * minute);
    await deliverWebhooks(app.deps);
    await receiver.waitFor(2);
    expect(headersOf(1)["webhook-id"]).toBe(headersOf(0)["webhook-id"]);
    expect(receiver.received[1]?.body).toBe(receiver.received[0]?.body);
    expect((await app.deps.db.query("SELECT 1 FROM webhook_events")).rows).toHaveLength(1);
    expect((await deliveries()).map((row) => row.status)).toEqual(["sent"]);
  });

  it("never calls a loopback or private address in production mode: the delivery fails at once, nothing arrives", async () => {
    await addEndpoint(["subscriber.created"]);
    const production = { ...app.deps, postWebhook: webhookPoster({ allowPrivateHosts: false }) };
    const { recordWebhookEvent } = await import("./webhook-events.ts");
    await app.deps.db.transaction((tx) =>
      recordWebhookEvent(tx, app.deps, "subscriber.created", { id: 1, email: "x@example.com", status: "pending" }),
    );
    await deliverWebhooks(production);
    expect(receiver.received).toHaveLength(0);
    expect((await deliveries())[0]?.status).toBe("failed");
    const log = await app.deps.db.query<{ status_code: number | null; error: string }>("SELECT status_code, error FROM webhook_attempts");
    expect(log.rows).toEqual([{ status_code: null, error: "The host 127.0.0.1 is a private or loopback address" }]);
  });

  it("refuses to save, in production, an endpoint whose host is or resolves to a private or loopback address (400)", async () => {
    const dns: Record<string, string[]> = {
      "crm.example.com": ["93.184.216.34", "2606:2800:220:1::1"],
      "intranet.example.com": ["10.0.0.7"],
      "mixed.example.com": ["93.184.216.34", "192.168.1.5"],
      "v6.example.com": ["fd00::5"],
    };
    const resolve = (host: string) => Promise.resolve((dns[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));
    const production = { ...app.deps, webhooksLocal: false, checkWebhookHost: webhookHostCheck({ allowPrivateHosts: false, resolve }) };
    const saved = await createWebhookEndpoint(production, { url: "https://crm.example.com/hooks", description: "", events: ["subscriber.created"] });
    // Not found (yet): let through; every delivery checks the address it connects to.
    await createWebhookEndpoint(production, { url: "https://not-yet.example.com/hooks", description: "", events: ["subscriber.created"] });
    for (const url of [
      "https://intranet.example.com/hooks",
      "https://mixed.example.com/hooks",
      "https://v6.example.com/hooks",
      "https://10.1.2.3/hooks",
      "https://169.254.169.254/latest",
      "https://[fd00::1]/hooks",
      "https://[::ffff:127.0.0.1]/hooks",
    ]) {
      await expect(createWebhookEndpoint(production, { url, description: "", events: ["subscriber.created"] }), url).rejects.toThrow(
        new ValidationError(
          `url must not point at a private or loopback address: The host ${new URL(url).hostname.replace(/^\[|\]$/g, "")} is a private or loopback address`,
        ),
      );
      await expect(updateWebhookEndpoint(production, saved.id, { url }), url).rejects.toThrow(ValidationError);
    }
    expect((await app.deps.db.query("SELECT url FROM webhook_endpoints ORDER BY id")).rows).toEqual([
      { url: "https://crm.example.com/hooks" },
      { url: "https://not-yet.example.com/hooks" },
    ]);
    // Under `npm start` (private hosts allowed) the same address is saved.
    const local = { ...production, checkWebhookHost: webhookHostCheck({ allowPrivateHosts: true, resolve }) };
    expect((await updateWebhookEndpoint(local, saved.id, { url: "https://intranet.example.com/hooks" })).url).toBe(
      "https://intranet.example.com/hooks",
    );
  });

  it("switches an endpoint failing for 3 days off and emails the owner; its deliveries wait until it is switched on", async () => {
    const endpoint = await addEndpoint(["subscriber.created"]);
    receiver.answer = { status: 500 };
    await signup("outage@example.com");
    let tries = 1;
    for (let hours = 0; hours < 80 && (await deliveries())[0]?.status === "pending"; hours++) {
      clock.advance(60 * minute);
      const run = await deliverWebhooks(app.deps);
      tries += run.retried + run.failed;
    }
    // 30 s, 5 min, 30 min, 2 h, 5 h, then every 10 h until 3 days: about a dozen tries.
    expect(tries).toBeGreaterThanOrEqual(10);
    expect(tries).toBeLessThanOrEqual(14);
    const { rows } = await app.deps.db.query<{ enabled: boolean; disabled_reason: string }>("SELECT enabled, disabled_reason FROM webhook_endpoints");
    expect(rows[0]).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining("3 days") as string });
    await app.deliverMail();
    const [mail] = await app.mail.waitFor(2);
    const owner = app.mail.to("hello@example.com");
    expect(owner).toHaveLength(1);
    expect(owner[0]?.subject).toContain("webhook endpoint was switched off");
    expect(owner[0]?.text).toContain(endpoint.url);
    // Its link opens the dashboard's Integrations tab, where the endpoint is switched on again.
    expect(owner[0]?.text).toContain(`${testOrigin}/owner-desk-2026#integrations`);
    expect(mail).toBeDefined();
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(Date.now() + webhookRetryForMs - 60 * minute);
    // An event while it is off waits, and goes once the owner switches it on again.
    receiver.answer = { status: 200 };
    const { recordWebhookEvent } = await import("./webhook-events.ts");
    await app.deps.db.query("UPDATE webhook_endpoints SET enabled = true WHERE id = $1", [endpoint.id]);
    await app.deps.db.transaction((tx) =>
      recordWebhookEvent(tx, app.deps, "subscriber.created", { id: 1, email: "w@example.com", status: "pending" }),
    );
    await app.deps.db.query("UPDATE webhook_endpoints SET enabled = false WHERE id = $1", [endpoint.id]);
    const before = receiver.received.length;
    expect(await deliverWebhooks(app.deps)).toMatchObject({ sent: 0 });
    expect(receiver.received).toHaveLength(before);
    await updateWebhookEndpoint(app.deps, endpoint.id, { enabled: true });
    expect(await deliverWebhooks(app.deps)).toMatchObject({ sent: 1 });
    expect((await app.deps.db.query("SELECT failing_since FROM webhook_endpoints")).rows).toEqual([{ failing_since: null }]);
  });

  it("one slow endpoint holds one slot: another endpoint's delivery arrives while it hangs", async () => {
    const slow = await startWebhookReceiver();
    slow.answer = { status: 200, hang: true };
    try {
      await addEndpoint(["subscriber.created"], slow.url);
      await addEndpoint(["subscriber.created"]);
      const { recordWebhookEvent } = await import("./webhook-events.ts");
      await app.deps.db.transaction((tx) =>
        recordWebhookEvent(tx, app.deps, "subscriber.created", { id: 1, email: "s@example.com", status: "pending" }),
      );
      const started = performance.now();
      const run = deliverWebhooks({ ...app.deps, postWebhook: webhookPoster({ allowPrivateHosts: true, timeoutMs: 1000 }) });
      await receiver.waitFor(1);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(await run).toMatchObject({ sent: 1, retried: 1 });
    } finally {
      await slow.close();
    }
  });

  it("a newsletter send's newsletter.sent goes out in the watchdog round that finishes the send", async () => {
    await addEndpoint(["newsletter.sent"]);
    await app.deps.db.query("INSERT INTO subscribers (email, status, confirmed_at) VALUES ('reader@example.com', 'active', now())");
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, read_time, published, published_at) VALUES ('Sent', '<p>x</p>', 1, true, now()) RETURNING id",
    );
    const started = await app.call("/api/newsletter/sends", {
      method: "POST",
      headers: { ...(await app.adminHeaders()), "content-type": "application/json" },
      body: JSON.stringify({ postId: rows[0]?.id }),
    });
    expect(started.status).toBe(202);
    const watchdog = backgroundJobs.find((job) => job.name === "newsletter-watchdog");
    if (!watchdog) throw new Error("no newsletter-watchdog job");
    const lines: string[] = [];
    await runBackgroundJob(app, watchdog, { log: (line) => lines.push(line) });
    expect(lines.join("\n")).toContain("done");
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]?.body ?? "{}")).toMatchObject({
      type: "newsletter.sent",
      data: { postId: rows[0]?.id, sent: 1, failed: 0 },
    });
  });

  it("a burst for one endpoint goes in one run, in order, one try each; a failing endpoint's burst waits untried", async () => {
    const endpoint = await addEndpoint(["subscriber.created"]);
    const { recordWebhookEvents } = await import("./webhook-events.ts");
    const burst = (from: number) =>
      app.deps.db.transaction((tx) =>
        recordWebhookEvents(
          tx,
          app.deps,
          "subscriber.created",
          Array.from({ length: 25 }, (_, i) => ({
            data: { id: from + i, email: `b${String(from + i)}@example.com`, status: "active" as const },
            subscriberId: null,
          })),
        ),
      );
    await burst(1);
    expect(await deliverWebhooks(app.deps)).toMatchObject({ sent: 25, retried: 0 });
    expect(receiver.received.map((hook) => (JSON.parse(hook.body) as { data: { id: number } }).data.id)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    expect((await deliveries()).every((row) => row.attempts === 1)).toBe(true);

    await app.deps.db.query("DELETE FROM webhook_events");
    receiver.answer = { status: 503 };
    await burst(100);
    expect(await deliverWebhooks(app.deps)).toMatchObject({ sent: 0, failed: 0 });
    expect(receiver.received).toHaveLength(26);
    const rows = await deliveries();
    expect(rows.map((row) => [row.status, row.attempts])).toEqual([["pending", 1], ...Array.from({ length: 24 }, () => ["pending", 0])]);
    expect((await app.deps.db.query("SELECT 1 FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id")).rows).toHaveLength(1);
    // Back up: the next runs deliver the lot.
    receiver.answer = { status: 200 };
    clock.advance(60_000);
    expect(await deliverWebhooks(app.deps)).toMatchObject({ sent: 25 });
    expect(endpoint.id).toBeGreaterThan(0);
  });

  it("a scheduled post's post.published goes out in the run that publishes it, not a watchdog minute later", async () => {
    await addEndpoint(["post.published"]);
    await app.deps.db.query("INSERT INTO posts (title, content, slug, published, publish_at) VALUES ('Timed', '<p>x</p>', 'timed', false, $1)", [
      new Date(clock.now().getTime() - 1000),
    ]);
    const publish = backgroundJobs.find((job) => job.name === "publish-due-posts");
    if (!publish) throw new Error("no publish-due-posts job");
    const lines: string[] = [];
    await runBackgroundJob(app, publish, { log: (line) => lines.push(line) });
    expect(lines[0]).toContain("went live");
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]?.body ?? "{}")).toMatchObject({ type: "post.published", data: { slug: "timed", path: "/blog/timed" } });
    expect((await deliveries()).map((row) => row.status)).toEqual(["sent"]);
  });

  it("sends a failed delivery again with the event's own time kept in the log, and 3 fresh days of retries from the resend", async () => {
    const endpoint = await addEndpoint(["subscriber.created"]);
    receiver.answer = { status: 410 };
    const happened = clock.now();
    const { recordWebhookEvent } = await import("./webhook-events.ts");
    await app.deps.db.transaction((tx) =>
      recordWebhookEvent(tx, app.deps, "subscriber.created", { id: 1, email: "r@example.com", status: "pending" }),
    );
    expect(await deliverWebhooks(app.deps)).toMatchObject({ failed: 1 });
    clock.advance(4 * 24 * 60 * minute);
    // Another delivery of the endpoint went through meanwhile: it is not failing for days.
    await app.deps.db.query("UPDATE webhook_endpoints SET failing_since = NULL");
    const resent = clock.now();
    expect(await redeliverWebhooks(app.deps, endpoint.id, { ids: [(await deliveries())[0]?.id ?? 0] })).toEqual({ queued: 1 });
    receiver.answer = { status: 503 };
    // 4 days after the event, but just sent again: a 503 is retried, not given up.
    expect(await deliverWebhooks(app.deps)).toMatchObject({ retried: 1 });
    const [logged] = (await listWebhookDeliveries(app.deps, endpoint.id, {})).deliveries;
    expect(logged).toMatchObject({ status: "pending", createdAt: happened.toISOString(), resentAt: resent.toISOString() });
    for (let hours = 0; hours < 80 && (await deliveries())[0]?.status === "pending"; hours++) {
      clock.advance(60 * minute);
      await deliverWebhooks(app.deps);
    }
    expect((await deliveries())[0]?.status).toBe("failed");
    expect(clock.now().getTime() - resent.getTime()).toBeGreaterThanOrEqual(webhookRetryForMs);
    expect(clock.now().getTime() - resent.getTime()).toBeLessThan(webhookRetryForMs + 11 * 60 * minute);
  });
});

describe("an endpoint's address", () => {
  it("is https; plain http only to this machine and only under npm start; never loopback in production", () => {
    const local = { webhooksLocal: true };
    const production = { webhooksLocal: false };
    expect(checkEndpointUrl(production, "https://crm.example.com/hooks")).toBe("https://crm.example.com/hooks");
    expect(checkEndpointUrl(local, "http://127.0.0.1:9000/hooks")).toBe("http://127.0.0.1:9000/hooks");
    expect(checkEndpointUrl(local, "http://localhost:9000/hooks")).toBe("http://localhost:9000/hooks");
    expect(() => checkEndpointUrl(production, "http://localhost:9000/hooks")).toThrow("url must start with https://");
    expect(() => checkEndpointUrl(production, "https://localhost/hooks")).toThrow("loopback");
    expect(() => checkEndpointUrl(local, "http://crm.example.com/hooks")).toThrow("plain http only to localhost");
  });
});
