import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { subscribeLimit } from "../../core/subscribers/subscribers.service.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const subscribe = (email: unknown, ip = "203.0.113.7") =>
  app.handler(
    new Request(new URL("/api/newsletter/subscribe", testOrigin), {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify({ email }),
    }),
    { ip },
  );

describe("POST /api/newsletter/subscribe", () => {
  // Issue 14: a signup is pending until confirmed by email (the whole lifecycle: subscriptions.routes.test.ts).
  it("stores a trimmed, lower-cased address once, pending, with the same answer twice", async () => {
    const first = await subscribe("  Founder@Example.COM ", "192.0.2.1");
    const again = await subscribe("founder@example.com", "192.0.2.1");
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual(await again.json());
    const { rows } = await app.deps.db.query<{ email: string; source: string; status: string }>(
      "SELECT email, source, status FROM subscribers WHERE lower(email) = 'founder@example.com'",
    );
    expect(rows).toEqual([{ email: "founder@example.com", source: "newsletter", status: "pending" }]);
  });

  it("answers 400 for a missing, malformed or over-long address", async () => {
    expect(await (await subscribe(undefined, "192.0.2.2")).json()).toEqual({ error: "Email is required" });
    expect(await (await subscribe("nope", "192.0.2.2")).json()).toEqual({ error: "Please enter a valid email address." });
    expect((await subscribe(`${"a".repeat(250)}@example.com`, "192.0.2.2")).status).toBe(400);
  });

  it("rate-limits one client with 429 and Retry-After", async () => {
    const ip = "192.0.2.50";
    for (let i = 0; i < subscribeLimit.max; i++) expect((await subscribe(`reader${String(i)}@example.com`, ip)).status).toBe(200);
    const limited = await subscribe("one-more@example.com", ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("subscribers for the admin", () => {
  it("lists subscribers newest first with the SPEC fields, only with a session", async () => {
    expect((await app.call("/api/newsletter/subscribers")).status).toBe(401);
    await app.deps.db.query(
      "INSERT INTO subscribers (email, source, subscribed_at, status) VALUES ('newest@example.com', 'download', now() + interval '1 day', 'active')",
    );
    const response = await app.call("/api/newsletter/subscribers", { headers: await app.adminHeaders() });
    const list = (await response.json()) as Record<string, unknown>[];
    expect(list[0]).toMatchObject({ email: "newest@example.com", isActive: true, source: "download" });
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(["email", "id", "isActive", "source", "status", "subscribedAt", "tags"]);
  });

  it("exports CSV as an attachment, with formula cells defused and quoting per RFC 4180", async () => {
    expect((await app.call("/api/newsletter/subscribers/export")).status).toBe(401);
    await app.deps.db.query(
      "INSERT INTO subscribers (email, source, status) VALUES ('=cmd@example.com', '+source', 'active'), ('a,\"b\"@example.com', 'newsletter', 'active')",
    );
    const response = await app.call("/api/newsletter/subscribers/export", { headers: await app.adminHeaders() });
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="email-subscribers.csv"');
    const csv = await response.text();
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("Email,Status,Subscribed At,Source,Topics,Tags");
    expect(csv).toContain("'=cmd@example.com,Active,");
    expect(csv).toContain(",'+source");
    expect(csv).toContain('"a,""b""@example.com"');
    const { rows } = await app.deps.db.query<{ count: number }>("SELECT count(*)::int AS count FROM subscribers");
    expect(lines).toHaveLength((rows[0]?.count ?? 0) + 1);
  });

  it("names each status in the CSV as the dashboard does: Pending, Active, Unsubscribed", async () => {
    await app.deps.db.query(
      "INSERT INTO subscribers (email, source, status) VALUES ('waiting@example.com', 'newsletter', 'pending'), ('gone@example.com', 'newsletter', 'unsubscribed')",
    );
    const csv = await (await app.call("/api/newsletter/subscribers/export", { headers: await app.adminHeaders() })).text();
    expect(csv).toContain("waiting@example.com,Pending,");
    expect(csv).toContain("gone@example.com,Unsubscribed,");
    expect(csv).not.toContain("Inactive");
  });
});

describe("the newsletter form without JavaScript", () => {
  const post = (body: string, ip: string) =>
    app.handler(
      new Request(new URL("/api/newsletter/subscribe", testOrigin), {
        method: "POST",
        headers: { origin: testOrigin, "content-type": "application/x-www-form-urlencoded" },
        body,
      }),
      { ip },
    );

  it("subscribes and sends the browser to a page that says so", async () => {
    const response = await post("email=No-JS%40Example.com", "192.0.2.70");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/subscribed/");
    const { rows } = await app.deps.db.query("SELECT 1 FROM subscribers WHERE email = 'no-js@example.com'");
    expect(rows).toHaveLength(1);
  });

  it("sends a bad address to the failure page", async () => {
    const response = await post("email=nope", "192.0.2.71");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/subscribe-failed/");
  });
});
