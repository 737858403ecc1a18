import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../../tests/support/webhook-receiver.ts";
import type { WebhookDelivery, WebhookEndpoint } from "../../core/webhooks/webhook.schema.ts";

let app: TestApp;
let clock: FakeClock;
let admin: Record<string, string>;
let receiver: WebhookReceiver;

const json = (method: string, path: string, body?: unknown, headers: Record<string, string> = admin) =>
  app.call(path, { method, headers: { ...headers, "content-type": "application/json" }, ...(body !== undefined && { body: JSON.stringify(body) }) });
const create = async (body: Record<string, unknown> = {}) => {
  const response = await json("POST", "/api/webhooks", { url: receiver.url, events: ["subscriber.created", "post.published"], ...body });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as WebhookEndpoint & { secret: string };
};
const log = async (id: number, query = "") => {
  const response = await json("GET", `/api/webhooks/${String(id)}/deliveries${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { deliveries: WebhookDelivery[]; total: number; pages: number };
};

beforeAll(async () => {
  clock = createFakeClock(new Date());
  app = await createTestApp({ clock });
  admin = await app.adminHeaders();
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  await app.deps.db.query("DELETE FROM webhook_endpoints");
  await app.deps.db.query("DELETE FROM webhook_events");
});
afterEach(async () => {
  await receiver.close();
});

describe("webhooks API", () => {
  it("answers 401 without a session, on every call", async () => {
    const none = { origin: testOrigin };
    for (const [method, path] of [
      ["GET", "/api/webhooks"],
      ["POST", "/api/webhooks"],
      ["PUT", "/api/webhooks/1"],
      ["DELETE", "/api/webhooks/1"],
      ["POST", "/api/webhooks/1/test"],
      ["POST", "/api/webhooks/1/rotate-secret"],
      ["GET", "/api/webhooks/1/deliveries"],
      ["POST", "/api/webhooks/1/deliveries/redeliver"],
    ] as const) {
      expect((await json(method, path, method === "GET" ? undefined : {}, none)).status, `${method} ${path}`).toBe(401);
    }
  });

  it("adds an endpoint with a whsec_ secret shown once, lists it without, changes and deletes it", async () => {
    const endpoint = await create({ description: "CRM" });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = (await (await json("GET", "/api/webhooks")).json()) as Record<string, unknown>[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty("secret");
    expect(JSON.stringify(listed)).not.toContain(endpoint.secret);
    const changed = await json("PUT", `/api/webhooks/${String(endpoint.id)}`, { events: ["newsletter.sent"], enabled: false });
    expect(await changed.json()).toMatchObject({ events: ["newsletter.sent"], enabled: false, disabledReason: "Switched off by the owner" });
    expect((await json("DELETE", `/api/webhooks/${String(endpoint.id)}`)).status).toBe(204);
    expect((await json("DELETE", `/api/webhooks/${String(endpoint.id)}`)).status).toBe(404);
    expect((await json("PUT", "/api/webhooks/999", { enabled: true })).status).toBe(404);
  });

  it("refuses plain http except to this machine while local, a missing or unknown event, and an address with credentials (400 with a message)", async () => {
    for (const body of [
      { url: "http://example.com/hook" },
      { url: "ftp://example.com/hook" },
      { url: "not a url" },
      { url: "https://user:pass@example.com/hook" },
      { events: [] },
      { events: ["subscriber.exploded"] },
    ]) {
      const response = await json("POST", "/api/webhooks", { url: "https://example.com/hook", events: ["subscriber.created"], ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: string }).error.length).toBeGreaterThan(5);
    }
    expect((await json("POST", "/api/webhooks", { url: "https://example.com/hook", events: ["subscriber.created"] })).status).toBe(201);
    expect((await json("POST", "/api/webhooks", { url: "http://localhost:9999/hook", events: ["subscriber.created"] })).status).toBe(201);
  });

  it("sends a test event, signed, and logs the attempt (status, time, the answer's first 2 KB)", async () => {
    const endpoint = await create();
    receiver.answer = { status: 200, body: "x".repeat(5000) };
    const response = await json("POST", `/api/webhooks/${String(endpoint.id)}/test`);
    expect(response.status).toBe(201);
    const [hook] = await receiver.waitFor(1);
    expect(new Webhook(endpoint.secret).verify(hook?.body ?? "", hook?.headers as Record<string, string>)).toMatchObject({ type: "webhook.test" });
    const { deliveries } = await log(endpoint.id);
    expect(deliveries[0]).toMatchObject({ type: "webhook.test", status: "sent", nextTryAt: null });
    expect(deliveries[0]?.attempts).toHaveLength(1);
    expect(deliveries[0]?.attempts[0]).toMatchObject({ status: 200, error: null });
    expect(deliveries[0]?.attempts[0]?.response).toHaveLength(2048);
  });

  it("sends failed deliveries again, one by id or every one since a time, with the same webhook-id", async () => {
    const endpoint = await create();
    receiver.answer = { status: 404, body: "no such hook" };
    await json("POST", `/api/webhooks/${String(endpoint.id)}/test`);
    await json("POST", `/api/webhooks/${String(endpoint.id)}/test`);
    const failed = await log(endpoint.id, "?status=failed");
    expect(failed.total).toBe(2);
    receiver.answer = { status: 200 };
    const [newest, oldest] = failed.deliveries as [WebhookDelivery, WebhookDelivery];
    const one = await json("POST", `/api/webhooks/${String(endpoint.id)}/deliveries/redeliver`, { ids: [oldest.id] });
    expect(await one.json()).toEqual({ queued: 1 });
    await receiver.waitFor(3);
    expect(receiver.received[2]?.headers["webhook-id"]).toBe(oldest.eventId);
    const since = await json("POST", `/api/webhooks/${String(endpoint.id)}/deliveries/redeliver`, {
      since: new Date(clock.now().getTime() - 60_000).toISOString(),
    });
    expect(await since.json()).toEqual({ queued: 1 });
    await receiver.waitFor(4);
    expect(receiver.received[3]?.headers["webhook-id"]).toBe(newest.eventId);
    expect((await log(endpoint.id, "?status=failed")).total).toBe(0);
    expect((await log(endpoint.id)).deliveries.map((delivery) => delivery.attempts.length)).toEqual([2, 2]);
    expect((await json("POST", `/api/webhooks/${String(endpoint.id)}/deliveries/redeliver`, {})).status).toBe(400);
    expect((await json("GET", `/api/webhooks/${String(endpoint.id)}/deliveries?status=lost`)).status).toBe(400);
    expect((await json("GET", "/api/webhooks/999/deliveries")).status).toBe(404);
  });

  it("rotates the secret: the answer holds the new one, the old one still verifies for 24 hours", async () => {
    const endpoint = await create();
    const response = await json("POST", `/api/webhooks/${String(endpoint.id)}/rotate-secret`);
    expect(response.status).toBe(200);
    const rotated = (await response.json()) as { secret: string };
    expect(rotated.secret).not.toBe(endpoint.secret);
    await json("POST", `/api/webhooks/${String(endpoint.id)}/test`);
    const [hook] = await receiver.waitFor(1);
    const headers = hook?.headers as Record<string, string>;
    expect(new Webhook(endpoint.secret).verify(hook?.body ?? "", headers)).toBeTruthy();
    expect(new Webhook(rotated.secret).verify(hook?.body ?? "", headers)).toBeTruthy();
    const { rows } = await app.deps.db.query<{ previous_secret_until: Date }>("SELECT previous_secret_until FROM webhook_endpoints");
    expect(new Date(rows[0]?.previous_secret_until ?? 0).getTime() - clock.now().getTime()).toBe(24 * 60 * 60 * 1000);
  });

  it("a published post arrives as post.published", async () => {
    await create({ events: ["post.published"] });
    const form = new FormData();
    for (const [key, value] of Object.entries({ title: "Hooked", content: "<p>Body.</p>", excerpt: "Short.", published: "true" }))
      form.set(key, value);
    const response = await app.call("/api/blog-posts", { method: "POST", headers: admin, body: form });
    expect(response.status, await response.clone().text()).toBe(201);
    const [hook] = await receiver.waitFor(1);
    expect(JSON.parse(hook?.body ?? "{}")).toMatchObject({ type: "post.published", data: { title: "Hooked", path: "/blog/hooked" } });
  });
});
