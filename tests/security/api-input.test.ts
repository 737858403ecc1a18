import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiHandler, type ApiHandler } from "../../src/api/api-handler.ts";
import { apiRoutes } from "../../src/api/routes.ts";
import { createSharedReads } from "../../src/api/shared-reads.ts";
import { createTestApp, testOrigin, type TestApp } from "../support/test-app.ts";
import { formData, multipartBody } from "../support/multipart.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const postJson = (path: string, body: string, headers: Record<string, string> = {}) =>
  app.call(path, { method: "POST", headers: { origin: testOrigin, "content-type": "application/json", ...headers }, body });

describe("finding 4: control characters in text input", () => {
  it("answers a NUL in the login username with a 400 that says so, and nothing reaches the database", async () => {
    const logged = vi.spyOn(console, "error");
    const response = await postJson("/api/auth/login", JSON.stringify({ username: "ad\u0000min", password: "whatever password" }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "username: control characters are not allowed" });
    expect(logged).not.toHaveBeenCalled();
  });

  it("refuses them in form fields and in the query too, but keeps line breaks and tabs", async () => {
    const admin = await app.adminHeaders();
    const { body, contentType } = await multipartBody(formData({ title: "Bell\u0007", content: "<p>x</p>" }));
    const form = await app.call("/api/blog-posts", { method: "POST", headers: { ...admin, "content-type": contentType }, body });
    expect(form.status).toBe(400);
    expect(await form.json()).toEqual({ error: "title: control characters are not allowed" });

    const query = await app.call("/api/blog-posts?published=true%00");
    expect(query.status).toBe(400);

    const lines = await app.call("/api/site-settings/about_description", {
      method: "PUT",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ value: "Line one\r\n\tLine two" }),
    });
    expect(lines.status).toBe(200);
  });
});

describe("finding 5: JSON bodies are capped", () => {
  it("answers 413 for a JSON body over 64 KB, declared or not", async () => {
    const big = JSON.stringify({ email: `${"a".repeat(70 * 1024)}@example.com` });
    const declared = await postJson("/api/newsletter/subscribe", big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: "The request body is too large (the limit is 64 KB)" });

    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await app.handler(
      new Request(new URL("/api/newsletter/subscribe", testOrigin), {
        method: "POST",
        headers: { origin: testOrigin, "content-type": "application/json" },
        body: stream,
        duplex: "half",
      } as RequestInit),
      { ip: "203.0.113.8" },
    );
    expect(streamed.status).toBe(413);
  });
});

describe("finding 2: the shared-read cache stays bounded", () => {
  it("keys by what the route reads: 20,000 requests with a junk parameter make one entry", async () => {
    const handler: ApiHandler = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve(app.deps), sharedReadMs: 60_000 });
    let statements = 0;
    const counted = createApiHandler({
      routes: apiRoutes,
      deps: () =>
        Promise.resolve({
          ...app.deps,
          db: {
            ...app.deps.db,
            query: (...args: Parameters<typeof app.deps.db.query>) => {
              statements += 1;
              return app.deps.db.query(...args);
            },
          },
        }),
      sharedReadMs: 60_000,
    });
    for (let n = 0; n < 200; n++) {
      const response = await counted(new Request(new URL(`/api/blog-posts?published=true&x=${String(n)}`, testOrigin)), { ip: "203.0.113.9" });
      expect(response.status).toBe(200);
    }
    expect(statements).toBe(1);
    expect((await handler(new Request(new URL("/api/site-settings", testOrigin)), { ip: "203.0.113.9" })).status).toBe(200);
  });

  it("holds at most its cap of entries, and drops expired ones", async () => {
    let clock = 0;
    const reads = createSharedReads(1000, () => clock, { maxEntries: 100 });
    for (let n = 0; n < 20_000; n++) await reads.answer(`key-${String(n)}`, () => Promise.resolve(new Response("x")));
    expect(reads.size()).toBeLessThanOrEqual(100);
    clock = 5000;
    await reads.answer("fresh", () => Promise.resolve(new Response("y")));
    expect(reads.size()).toBe(1);
  });
});

describe("finding 9: headers on API answers", () => {
  it("sends nosniff on every answer, and no-store on every answer to an admin", async () => {
    const health = await app.call("/api/health");
    expect(health.headers.get("x-content-type-options")).toBe("nosniff");
    const missing = await app.call("/api/no-such-call");
    expect(missing.headers.get("x-content-type-options")).toBe("nosniff");
    const admin = await app.adminHeaders();
    for (const path of [
      "/api/blog-posts",
      "/api/downloads",
      "/api/site-settings",
      "/api/newsletter/subscribers",
      "/api/newsletter/subscribers/export",
    ]) {
      const response = await app.call(path, { headers: admin });
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe("no-store");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      await response.body?.cancel();
    }
  });
});
