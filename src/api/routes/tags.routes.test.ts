import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { multipartBody, type FormFields } from "../../../tests/support/multipart.ts";
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
  await app.deps.db.query("DELETE FROM posts");
  await app.deps.db.query("DELETE FROM tags");
});

const json = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(path, {
    method,
    ...(body !== undefined && { body: JSON.stringify(body) }),
    headers: { ...(headers ?? (await app.adminHeaders())), "content-type": "application/json" },
  });

async function savePost(method: "POST" | "PUT", path: string, form: FormFields): Promise<Response> {
  const { body, contentType } = await multipartBody({ title: "Runway math", content: "<p>Count the months.</p>", ...form });
  return call(path, { method, body, headers: { ...(await app.adminHeaders()), "content-type": contentType } });
}

const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

describe("/api/tags", () => {
  it("lists tags publicly with their published post count", async () => {
    expect((await savePost("POST", "/api/blog-posts", { tags: "Pricing, Seed rounds", published: "true" })).status).toBe(201);
    expect((await savePost("POST", "/api/blog-posts", { tags: "Pricing" })).status).toBe(201);
    const response = await call("/api/tags");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { slug: "pricing", name: "Pricing", description: null, topic: false, postCount: 1 },
      { slug: "seed-rounds", name: "Seed rounds", description: null, topic: false, postCount: 1 },
    ]);
  });

  it("creates, changes and deletes tags for the admin; 401 without a session", async () => {
    const body = { name: "Funding", description: "Raising money, round by round", topic: true };
    expect((await json("POST", "/api/tags", body, { origin: testOrigin })).status).toBe(401);
    const created = await json("POST", "/api/tags", body);
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ slug: "funding", name: "Funding", description: body.description, topic: true, postCount: 0 });

    expect((await json("PUT", "/api/tags/funding", { name: "Fundraising", topic: true }, { origin: testOrigin })).status).toBe(401);
    const renamed = await json("PUT", "/api/tags/funding", { name: "Fundraising", slug: "fundraising", topic: true });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ slug: "fundraising", name: "Fundraising", description: body.description });

    expect((await json("DELETE", "/api/tags/fundraising", undefined, { origin: testOrigin })).status).toBe(401);
    expect((await json("DELETE", "/api/tags/fundraising")).status).toBe(204);
    expect((await json("DELETE", "/api/tags/fundraising")).status).toBe(404);
  });

  it("answers a user's mistake with 4xx JSON, never 500", async () => {
    await json("POST", "/api/tags", { name: "Funding", topic: false });
    const cases: [string, string, unknown, number, string][] = [
      ["POST", "/api/tags", { topic: true }, 400, "Name is required"],
      ["POST", "/api/tags", { name: "A, B", topic: true }, 400, "comma"],
      ["POST", "/api/tags", { name: "Ok", slug: "Not A Slug", topic: true }, 400, "Slug may contain only"],
      ["POST", "/api/tags", { name: "Ok", topic: "yes" }, 400, "topic must be true or false"],
      ["POST", "/api/tags", { name: "FUNDING", topic: false }, 409, "A tag with this name already exists"],
      ["POST", "/api/tags", { name: "Money", slug: "funding", topic: false }, 409, "This slug is already used by another tag"],
      ["PUT", "/api/tags/nothing-here", { name: "X", topic: false }, 404, "Tag not found"],
      ["PUT", "/api/tags/NOT_A_SLUG", { name: "X", topic: false }, 404, "Tag not found"],
    ];
    for (const [method, path, body, status, message] of cases) {
      const response = await json(method, path, body);
      expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(await errorOf(response)).toContain(message);
    }
  });

  it("deleting a tag keeps its posts", async () => {
    const created = (await (await savePost("POST", "/api/blog-posts", { tags: "Pricing, Hiring", published: "true" })).json()) as { id: number };
    expect((await json("DELETE", "/api/tags/pricing")).status).toBe(204);
    const post = (await (await call(`/api/blog-posts/${String(created.id)}`)).json()) as { tags: string[] };
    expect(post.tags).toEqual(["hiring"]);
  });
});

describe("tags in the post calls", () => {
  it("are set by the multipart field `tags`, kept when left out, and answered as slugs", async () => {
    const created = await savePost("POST", "/api/blog-posts", { tags: "Cold email, Pricing" });
    expect(created.status).toBe(201);
    const { id, tags } = (await created.json()) as { id: number; tags: string[] };
    expect(tags).toEqual(["cold-email", "pricing"]);
    const kept = await savePost("PUT", `/api/blog-posts/${String(id)}`, {});
    expect(((await kept.json()) as { tags: string[] }).tags).toEqual(["cold-email", "pricing"]);
    const changed = await savePost("PUT", `/api/blog-posts/${String(id)}`, { tags: "pricing" });
    expect(((await changed.json()) as { tags: string[] }).tags).toEqual(["pricing"]);
    const tooMany = await savePost("POST", "/api/blog-posts", { tags: Array.from({ length: 21 }, (_, n) => `t${String(n)}`).join(",") });
    expect(tooMany.status).toBe(400);
    expect(await errorOf(tooMany)).toContain("at most 20 tags");
  });
});
