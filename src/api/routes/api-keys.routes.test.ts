import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { multipartBody } from "../../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { apiScopes, type ApiScope } from "../../core/api-keys/api-key.schema.ts";
import { apiKeyRateLimit, invalidApiKeyMessage, keyRefusedMessage, missingScopeMessage } from "../../core/api-keys/api-keys.service.ts";
import { backupTables } from "../../core/backups/backup-tables.ts";
import { apiRoutes } from "../routes.ts";

const clock = createFakeClock(new Date("2026-03-02T10:00:00Z"));
let app: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  app = await createTestApp({ clock });
  admin = await app.adminHeaders();
});
afterAll(async () => {
  await app.close();
});

interface CreatedKey {
  id: number;
  key: string;
  name: string;
  scopes: ApiScope[];
  lastUsedAt: string | null;
}

const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function createKey(name: string, scopes: ApiScope[]): Promise<CreatedKey> {
  const response = await app.call("/api/keys", {
    method: "POST",
    headers: { ...admin, "content-type": "application/json" },
    body: JSON.stringify({ name, scopes }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as CreatedKey;
}

/** A path of the route table with each parameter filled with a plausible value. */
const concretePath = (path: string) => path.replace(/:key\b/, "welcome").replace(/:\w+/g, "1");

describe("/api/keys", () => {
  it("makes a key with an admin session, shows it once, lists it without it, and revokes it", async () => {
    const created = await createKey("CRM", ["subscribers:read", "subscribers:read", "content:read"]);
    expect(created).toMatchObject({ name: "CRM", scopes: ["content:read", "subscribers:read"], lastUsedAt: null });
    expect(created.key).toMatch(/^nf_/);

    const listed = await app.call("/api/keys", { headers: admin });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("cache-control")).toBe("no-store");
    const text = await listed.text();
    expect(text).not.toContain(created.key);
    expect(JSON.parse(text)).toContainEqual(expect.objectContaining({ id: created.id, name: "CRM" }));

    expect((await app.call("/api/newsletter/subscribers", { headers: bearer(created.key) })).status).toBe(200);
    const revoked = await app.call(`/api/keys/${String(created.id)}`, { method: "DELETE", headers: admin });
    expect(revoked.status).toBe(204);
    const refused = await app.call("/api/newsletter/subscribers", { headers: bearer(created.key) });
    expect(refused.status).toBe(401);
    expect(await errorOf(refused)).toBe(invalidApiKeyMessage);
    expect((await app.call(`/api/keys/${String(created.id)}`, { method: "DELETE", headers: admin })).status).toBe(404);
  });

  it("refuses a key without a name or a scope, or with an unknown scope", async () => {
    for (const body of [
      { name: "", scopes: ["content:read"] },
      { name: "No scope", scopes: [] },
      { name: "Odd", scopes: ["admin"] },
    ]) {
      const response = await app.call("/api/keys", {
        method: "POST",
        headers: { ...admin, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(400);
    }
  });

  it("is managed only with a session: 401 without one, and a key, whatever its scopes, is refused", async () => {
    expect((await app.call("/api/keys")).status).toBe(401);
    const everything = await createKey("All scopes", [...apiScopes]);
    for (const [method, path] of [
      ["GET", "/api/keys"],
      ["POST", "/api/keys"],
      ["DELETE", `/api/keys/${String(everything.id)}`],
    ] as const) {
      const response = await app.call(path, {
        method,
        headers: { ...bearer(everything.key), "content-type": "application/json" },
        ...(method === "POST" && { body: JSON.stringify({ name: "Child", scopes: ["content:read"] }) }),
      });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(await errorOf(response)).toBe(keyRefusedMessage);
    }
  });
});

describe("a call with an API key", () => {
  it("reaches every admin operation of its scope and no other (every operation, every scope)", async () => {
    const adminRoutes = apiRoutes.filter((route) => route.access === "admin");
    expect(adminRoutes.length).toBeGreaterThan(50);
    for (const scope of apiScopes) {
      const { key } = await createKey(`Only ${scope}`, [scope]);
      for (const route of adminRoutes) {
        const label = `${route.method} ${route.path} with ${scope} (route needs ${String(route.scope)})`;
        const response = await app.call(concretePath(route.path), { method: route.method, headers: bearer(key) });
        if (route.scope === scope) {
          expect([401, 403], label).not.toContain(response.status);
        } else {
          expect(response.status, label).toBe(403);
          expect(await errorOf(response), label).toBe(
            route.scope === "none" ? keyRefusedMessage : missingScopeMessage(route.scope ?? "content:read"),
          );
        }
      }
    }
  });

  it("needs no Origin, while a cookie session's write still does", async () => {
    const writer = await createKey("Writer", ["content:write", "content:read"]);
    const form = await multipartBody({ title: "From the CRM", content: "<p>Drafted elsewhere.</p>", published: "false" });
    const created = await app.call("/api/blog-posts", {
      method: "POST",
      headers: { ...bearer(writer.key), "content-type": form.contentType },
      body: form.body,
    });
    expect(created.status).toBe(201);
    const post = (await created.json()) as { id: number };

    const cookieOnly = await multipartBody({ title: "Cross-site", content: "<p>x</p>" });
    const crossSite = await app.call("/api/blog-posts", {
      method: "POST",
      headers: { cookie: admin.cookie ?? "", "content-type": cookieOnly.contentType },
      body: cookieOnly.body,
    });
    expect(crossSite.status).toBe(403);

    // content:read is the owner's view of a `session` route: drafts too, never shared with visitors.
    const drafts = await app.call("/api/blog-posts", { headers: bearer(writer.key) });
    expect(drafts.status).toBe(200);
    expect(((await drafts.json()) as { id: number }[]).map((listed) => listed.id)).toContain(post.id);
    expect((await app.call(`/api/blog-posts/${String(post.id)}`, { headers: bearer(writer.key) })).status).toBe(200);
    const reader = await createKey("Subscribers only", ["subscribers:read"]);
    const notOwner = await app.call("/api/blog-posts", { headers: bearer(reader.key) });
    expect(notOwner.status).toBe(403);
    expect(await errorOf(notOwner)).toBe(missingScopeMessage("content:read"));
    expect((await app.call("/api/blog-posts?published=true", { headers: bearer(reader.key) })).status).toBe(200);
    expect((await app.call(`/api/blog-posts/${String(post.id)}`, { headers: bearer(reader.key) })).status).toBe(404);
    expect((await app.call(`/api/blog-posts/${String(post.id)}`)).status).toBe(404);
  });

  it("is refused with 401 for a key that is not one, or without a session in another scheme; a cookie beside a key is not read", async () => {
    for (const authorization of ["Bearer nf_made-up", "Bearer", "Basic YWRtaW46YWRtaW4="]) {
      const response = await app.call("/api/newsletter/subscribers", { headers: { authorization } });
      expect(response.status, authorization).toBe(401);
    }
    const stats = await createKey("Stats", ["stats:read"]);
    const response = await app.call("/api/newsletter/subscribers", { headers: { ...admin, ...bearer(stats.key) } });
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toBe(missingScopeMessage("subscribers:read"));
  });

  it("writes the key's last use, at most once a minute", async () => {
    const key = await createKey("Used", ["stats:read"]);
    expect((await app.call("/api/stats", { headers: bearer(key.key) })).status).toBe(200);
    const used = clock.now().toISOString();
    clock.advance(30_000);
    await app.call("/api/stats", { headers: bearer(key.key) });
    const listed = (await (await app.call("/api/keys", { headers: admin })).json()) as CreatedKey[];
    expect(listed.find((row) => row.id === key.id)?.lastUsedAt).toBe(used);
  });

  it("is limited to 600 calls a minute per key, then 429 with Retry-After", async () => {
    const key = await createKey("Loop", ["stats:read"]);
    const other = await createKey("Other", ["stats:read"]);
    clock.advance(apiKeyRateLimit.windowMs - (clock.now().getTime() % apiKeyRateLimit.windowMs));
    // Refused calls count too: a key looping on a call it may not make is limited all the same.
    for (let call = 0; call < apiKeyRateLimit.max; call++) await app.call("/api/keys", { headers: bearer(key.key) });
    const limited = await app.call("/api/stats", { headers: bearer(key.key) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await app.call("/api/stats", { headers: bearer(other.key) })).status).toBe(200);
    clock.advance(2 * apiKeyRateLimit.windowMs);
    expect((await app.call("/api/stats", { headers: bearer(key.key) })).status).toBe(200);
  });

  it("leaves keys and webhook secrets out of a backup and out of every export", async () => {
    const key = await createKey("Kept out", ["subscribers:read"]);
    const endpoint = await app.call("/api/webhooks", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ url: "http://127.0.0.1:9/hook", events: ["subscriber.created"] }),
    });
    const { secret } = (await endpoint.json()) as { secret: string };
    expect(await backupTables(app.deps.db)).not.toContain("api_keys");
    expect(await backupTables(app.deps.db)).not.toContain("webhook_endpoints");
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO subscribers (email, source, status) VALUES ('exported@example.com', 'newsletter', 'active') RETURNING id",
    );
    // The list with the key itself (the curl), the whole CSV and one person's data.
    const listed = await app.call("/api/newsletter/subscribers", { headers: bearer(key.key) });
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain("exported@example.com");
    for (const path of ["/api/newsletter/subscribers/export", `/api/newsletter/subscribers/${String(rows[0]?.id)}/export`]) {
      const response = await app.call(path, { headers: admin });
      expect(response.status, path).toBe(200);
      const text = await response.text();
      expect(text, path).toContain("exported@example.com");
      for (const hidden of [key.key, key.key.slice(-12), secret, "whsec_"]) expect(text, path).not.toContain(hidden);
    }
  });
});

describe("the site's own origin", () => {
  it("is unchanged for a cookie session: the dashboard's calls work as before", async () => {
    const response = await app.call("/api/keys", { headers: { ...admin, origin: testOrigin } });
    expect(response.status).toBe(200);
  });
});
