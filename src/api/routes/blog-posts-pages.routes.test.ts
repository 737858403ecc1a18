import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { multipartBody, type FormFields } from "../../../tests/support/multipart.ts";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import type { Post } from "../../core/posts/post.schema.ts";
import { publishDuePosts } from "../../core/posts/posts.service.ts";
import { createApiHandler, type ApiHandler } from "../api-handler.ts";
import { apiRoutes } from "../routes.ts";

// Issue 16 on the API: slugs (with 409 on a taken one), ?limit=&page= on lists, scheduled posts.
let app: TestApp;
let clock: FakeClock;
let handler: ApiHandler;
let admin: Record<string, string>;

const call = (path: string, init?: RequestInit) => handler(new Request(new URL(path, testOrigin), init), { ip: "203.0.113.7" });
const send = async (method: string, path: string, fields: FormFields) => {
  const { body, contentType } = await multipartBody({ title: "Runway math", content: "<p>Count the months.</p>", ...fields });
  return call(path, { method, headers: { ...admin, "content-type": contentType }, body });
};
const created = async (fields: FormFields) => {
  const response = await send("POST", "/api/blog-posts", fields);
  expect(response.status).toBe(201);
  return (await response.json()) as Post;
};
const list = async (path: string) => {
  const response = await call(path);
  expect(response.status).toBe(200);
  return (await response.json()) as Post[];
};
const minute = 60_000;

beforeAll(async () => {
  clock = createFakeClock(new Date("2026-11-23T20:00:00Z"));
  app = await createTestApp({ now: () => clock.now() });
  handler = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve(app.deps), checkAnswers: true });
  admin = await app.adminHeaders();
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  await app.deps.db.query("DELETE FROM posts");
});

describe("slugs", () => {
  it("answer each post with its slug and url; GET by id still works", async () => {
    const post = await created({ title: "Cash Is a Fact", published: "true" });
    expect(post).toMatchObject({ slug: "cash-is-a-fact", url: "/blog/cash-is-a-fact" });
    const byId = (await (await call(`/api/blog-posts/${String(post.id)}`)).json()) as Post;
    expect(byId.slug).toBe("cash-is-a-fact");
  });

  it("refuse a taken slug with 409 and a bad one with 400, as JSON errors", async () => {
    await created({ slug: "cash-is-a-fact" });
    const taken = await send("POST", "/api/blog-posts", { slug: "cash-is-a-fact" });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ error: "This slug is already used by another post" });
    const bad = await send("POST", "/api/blog-posts", { slug: "Cash Is A Fact" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Slug may contain only lowercase letters, numbers and single hyphens" });
  });
});

describe("GET /api/blog-posts?published=true with limit and page", () => {
  beforeEach(async () => {
    for (let number = 1; number <= 5; number++) {
      clock.advance(minute);
      await created({ title: `Post ${String(number)}`, published: "true" });
    }
  });

  it("answers the whole list without them, as SPEC has it", async () => {
    expect((await list("/api/blog-posts?published=true")).map((post) => post.title)).toEqual(["Post 5", "Post 4", "Post 3", "Post 2", "Post 1"]);
  });

  it("answers one page at a time, and an empty page past the end", async () => {
    const titles = async (query: string) => (await list(`/api/blog-posts?published=true&${query}`)).map((post) => post.title);
    expect(await titles("limit=2")).toEqual(["Post 5", "Post 4"]);
    expect(await titles("limit=2&page=2")).toEqual(["Post 3", "Post 2"]);
    expect(await titles("limit=2&page=3")).toEqual(["Post 1"]);
    expect(await titles("limit=2&page=4")).toEqual([]);
  });

  it("refuses a limit or page that is not a whole number in range (400)", async () => {
    for (const query of ["limit=0", "limit=101", "limit=abc", "limit=2&page=0", "limit=2&page=-1"]) {
      const response = await call(`/api/blog-posts?published=true&${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/^(limit|page) must be a whole number/);
    }
  });

  it("pages the admin's list, and the subscribers (by status too, with their totals counted apart)", async () => {
    const adminPage = await call("/api/blog-posts?limit=3&page=2", { headers: admin });
    expect(((await adminPage.json()) as Post[]).map((post) => post.title)).toEqual(["Post 2", "Post 1"]);
    await app.deps.db.query(
      "INSERT INTO subscribers (email, status, source) SELECT 'r' || n || '@example.com', 'active', 'import' FROM generate_series(1, 5) AS n",
    );
    const subscribers = await call("/api/newsletter/subscribers?limit=2&page=3", { headers: admin });
    expect(subscribers.status).toBe(200);
    expect(((await subscribers.json()) as unknown[]).length).toBe(1);
    await app.deps.db.query("DELETE FROM subscribers");
  });
});

describe("a scheduled post", () => {
  it("is absent from the public API until its time, then goes live once, dated at that time", async () => {
    const publishAt = new Date(clock.now().getTime() + 2 * minute);
    const post = await created({ title: "Later", publishAt: publishAt.toISOString() });
    expect(post).toMatchObject({ published: false, publishedAt: null, publishAt: publishAt.toISOString() });
    expect(await list("/api/blog-posts?published=true")).toEqual([]);
    expect((await call(`/api/blog-posts/${String(post.id)}`)).status).toBe(404);

    clock.advance(minute);
    const rebuildsBefore = app.rebuilds.count;
    expect(await publishDuePosts(app.deps)).toEqual([]);
    expect(app.rebuilds.count).toBe(rebuildsBefore);

    clock.advance(minute);
    expect(await publishDuePosts(app.deps)).toMatchObject([{ id: post.id, title: post.title, url: post.url }]);
    expect(app.rebuilds.count).toBe(rebuildsBefore + 1);
    expect(await publishDuePosts(app.deps)).toEqual([]);
    const [live] = await list("/api/blog-posts?published=true");
    expect(live).toMatchObject({ id: post.id, published: true, publishedAt: publishAt.toISOString(), publishAt: null });
  });
});
