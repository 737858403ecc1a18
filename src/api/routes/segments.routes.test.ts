import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { createApiHandler, type ApiHandler } from "../api-handler.ts";
import { apiRoutes } from "../routes.ts";

let app: TestApp;
let handler: ApiHandler;
const call = (path: string, init?: RequestInit) => handler(new Request(new URL(path, testOrigin), init), { ip: "203.0.113.7" });

beforeAll(async () => {
  app = await createTestApp({ now: () => new Date("2026-03-01T10:00:00.000Z") });
  handler = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve(app.deps), checkAnswers: true });
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  await app.deps.db.exec("DELETE FROM segments; DELETE FROM tags; DELETE FROM subscriber_tags");
  await app.deps.db.query("INSERT INTO tags (slug, name, topic) VALUES ('funding', 'Funding', true), ('pricing', 'Pricing', false)");
  await app.deps.db.query("INSERT INTO subscriber_tags (slug) VALUES ('vip')");
});

const json = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(path, {
    method,
    ...(body !== undefined && { body: JSON.stringify(body) }),
    headers: { ...(headers ?? (await app.adminHeaders())), "content-type": "application/json" },
  });
const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

describe("/api/segments", () => {
  it("saves, lists, changes and deletes segments for the admin; 401 without a session", async () => {
    const body = { name: "Funding, no VIPs", segment: "follows funding AND NOT tag vip" };
    expect((await json("POST", "/api/segments", body, { origin: testOrigin })).status).toBe(401);
    expect((await json("GET", "/api/segments", undefined, { origin: testOrigin })).status).toBe(401);
    const created = await json("POST", "/api/segments", body);
    expect(created.status).toBe(201);
    const saved = (await created.json()) as { id: number };
    expect(saved).toEqual({ id: saved.id, ...body, createdAt: "2026-03-01T10:00:00.000Z", updatedAt: "2026-03-01T10:00:00.000Z" });
    expect(await (await json("GET", "/api/segments")).json()).toEqual([saved]);
    expect(await (await json("GET", `/api/segments/${String(saved.id)}`)).json()).toEqual(saved);

    const changed = await json("PUT", `/api/segments/${String(saved.id)}`, { name: "VIPs", segment: "tag vip" });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ id: saved.id, name: "VIPs", segment: "tag vip" });
    expect((await json("PUT", `/api/segments/${String(saved.id)}`, { name: "VIPs", segment: "tag vip" }, { origin: testOrigin })).status).toBe(401);
    expect((await json("DELETE", `/api/segments/${String(saved.id)}`, undefined, { origin: testOrigin })).status).toBe(401);
    expect((await json("DELETE", `/api/segments/${String(saved.id)}`)).status).toBe(204);
    expect((await json("GET", `/api/segments/${String(saved.id)}`)).status).toBe(404);
    expect((await json("DELETE", `/api/segments/${String(saved.id)}`)).status).toBe(404);
    expect((await json("PUT", "/api/segments/99999", body)).status).toBe(404);
  });

  it("checks the expression with the grammar and the name for clashes", async () => {
    const bad = await json("POST", "/api/segments", { name: "Broken", segment: "follows funding AND" });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toBe(
      "Expected 'everything', 'supporters', 'follows <topic>', 'tag <tag>', 'NOT' or '(', found the end at position 20",
    );
    const notTopic = await json("POST", "/api/segments", { name: "Pricing", segment: "follows pricing" });
    expect(await errorOf(notTopic)).toBe("'pricing' is a post tag but not a topic readers follow: mark it as a topic first");
    expect((await json("POST", "/api/segments", { name: "", segment: "everything" })).status).toBe(400);
    expect((await json("POST", "/api/segments", { name: "Everyone who follows all", segment: "everything" })).status).toBe(201);
    const clash = await json("POST", "/api/segments", { name: "everyone WHO follows all", segment: "tag vip" });
    expect(clash.status).toBe(409);
    expect(await errorOf(clash)).toBe("A saved segment is already named 'everyone WHO follows all'");
  });
});
