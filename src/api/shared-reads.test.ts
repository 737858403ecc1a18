import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, testOrigin, type TestApp } from "../../tests/support/test-app.ts";
import { createApiHandler, type ApiHandler } from "./api-handler.ts";
import { apiRoutes } from "./routes.ts";
import { createSharedReads } from "./shared-reads.ts";

type Setting = { key: string; value: string };

describe("shared public reads, on a real database", () => {
  let app: TestApp;
  let handler: ApiHandler;
  let statements = 0;
  beforeAll(async () => {
    app = await createTestApp();
    // The real database, counted: how many statements the visitors' reads cost.
    const db = {
      ...app.deps.db,
      query: ((...args: Parameters<typeof app.deps.db.query>) => {
        statements += 1;
        return app.deps.db.query(...args);
      }) as typeof app.deps.db.query,
    };
    handler = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve({ ...app.deps, db }), sharedReadMs: 60_000 });
  });
  afterAll(async () => {
    await app.close();
  });

  const call = (path: string, init?: RequestInit) => handler(new Request(new URL(path, testOrigin), init), { ip: "203.0.113.9" });
  const heroTitle = async (init?: RequestInit) => {
    const settings = (await (await call("/api/site-settings", init)).json()) as Setting[];
    return settings.find((setting) => setting.key === "hero_title")?.value;
  };

  it("answers visitors who arrive together from one read, and keeps that answer for the next ones", async () => {
    statements = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("/api/downloads")));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(await Promise.all(answers.map((answer) => answer.json()))).toEqual(Array.from({ length: 20 }, () => []));
    expect(statements).toBe(1);
    await call("/api/downloads");
    expect(statements).toBe(1);
  });

  it("shows the owner fresh data, and everyone the change once it is written through the API", async () => {
    const before = await heroTitle();
    await app.deps.db.query("INSERT INTO site_settings (key, value) VALUES ('hero_title', 'Written behind the API')");
    expect(await heroTitle(), "a visitor within the sharing window").toBe(before);
    const admin = await app.adminHeaders();
    expect(await heroTitle({ headers: admin }), "the owner never gets a shared answer").toBe("Written behind the API");

    const put = await call("/api/site-settings/hero_title", {
      method: "PUT",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ value: "Changed in the dashboard" }),
    });
    expect(put.status).toBe(200);
    expect(await heroTitle(), "a visitor right after the owner's change").toBe("Changed in the dashboard");
  });

  it("never shares a refusal: the admin list without a session is 401 each time", async () => {
    for (let i = 0; i < 2; i++) expect((await call("/api/blog-posts")).status).toBe(401);
    await app.deps.db.query("INSERT INTO posts (title, content, published, published_at) VALUES ('Fresh', '<p>x</p>', true, now())");
    // The public list was never asked for, so it is read now and shows the post.
    const posts = (await (await call("/api/blog-posts?published=true")).json()) as { title: string }[];
    expect(posts.map((post) => post.title)).toContain("Fresh");
  });
});

describe("createSharedReads", () => {
  const ok = (body: string) => () => Promise.resolve(new Response(body, { status: 200 }));

  it("reads again once the answer is older than its time", async () => {
    let clock = 0;
    const reads = createSharedReads(1000, () => clock);
    expect(await (await reads.answer("k", ok("first"))).text()).toBe("first");
    clock = 999;
    expect(await (await reads.answer("k", ok("second"))).text()).toBe("first");
    clock = 1001;
    expect(await (await reads.answer("k", ok("third"))).text()).toBe("third");
  });

  it("does not keep a read that was under way when a write cleared the answers", async () => {
    const reads = createSharedReads(1000, () => 0);
    let finish: (response: Response) => void = () => undefined;
    const slow = reads.answer("k", () => new Promise<Response>((resolve) => (finish = resolve)));
    reads.clear();
    finish(new Response("before the write"));
    expect(await (await slow).text()).toBe("before the write");
    expect(await (await reads.answer("k", ok("after the write"))).text()).toBe("after the write");
  });

  it("does not keep a failure", async () => {
    const reads = createSharedReads(1000, () => 0);
    await expect(reads.answer("k", () => Promise.reject(new Error("database down")))).rejects.toThrow("database down");
    expect((await reads.answer("k", () => Promise.resolve(new Response("busy", { status: 503 })))).status).toBe(503);
    expect(await (await reads.answer("k", ok("back"))).text()).toBe("back");
  });
});
