import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../tests/support/test-app.ts";
import { connectDatabase } from "../adapters/connect-database.ts";
import { createApiHandler } from "./api-handler.ts";
import { declareRoute, emptyAnswer } from "./declare-route.ts";
import { apiRoutes } from "./routes.ts";
import { settingKeys } from "../core/settings/settings.schema.ts";

const boom = declareRoute({ method: "GET", path: "/api/boom", access: "public", summary: "Fails", answers: { 204: emptyAnswer("Never") } });

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("GET /api/health", () => {
  it("answers ok after a database round trip", async () => {
    const response = await app.call("/api/health");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await response.json()) as { status: string; database: string; databaseMs: number };
    expect(body).toMatchObject({ status: "ok", database: "ok" });
    expect(body.databaseMs).toBeGreaterThanOrEqual(0);
  });

  it("answers 503 with a JSON error when the database is down, and logs the driver's error", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    // The real driver against a port where nothing listens: its adapter names the failure.
    const unreachable = await connectDatabase("postgres://postgres@127.0.0.1:1/none", { driver: "pg" });
    const down = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve({ ...app.deps, db: unreachable }) });
    try {
      const response = await down(new Request("http://localhost/api/health"), { ip: "127.0.0.1" });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect(await response.json()).toEqual({ error: "The database is unavailable. Please try again shortly." });
      expect(logged.mock.calls).toHaveLength(1);
      const [line, cause] = (logged.mock.calls[0] ?? []) as unknown[];
      expect(line).toMatch(/^\[api\] GET \/api\/health: database unavailable/);
      expect((cause as { code?: string } | undefined)?.code).toBe("ECONNREFUSED");
    } finally {
      await unreachable.close();
    }
  });
});

describe("GET /api/site-settings", () => {
  it("lists every known setting with its default when none are stored", async () => {
    const response = await app.call("/api/site-settings");
    expect(response.status).toBe(200);
    const settings = (await response.json()) as { key: string; value: string }[];
    expect(settings.map((setting) => setting.key)).toEqual(settingKeys);
    // Every one shows its default; the few whose default is empty are empty: the membership's prices (that
    // interval off until the owner sets one), the WebSub hub (the default hub for where the site runs) and the
    // words that hold a comment (none).
    const empty = settings.filter((setting) => setting.value.length === 0).map((setting) => setting.key);
    expect(empty.sort()).toEqual(["comment_hold_words", "membership_monthly_price", "membership_yearly_price", "websub_hub"]);
    // The postal address every email's footer shows starts as an obvious placeholder, on several lines.
    expect(settings.find((setting) => setting.key === "mailing_address")?.value).toBe("No Filter\n123 Example Street\nSpringfield, ST 00000\nUSA");
  });

  it("shows a stored value, and the default again when the stored value is empty", async () => {
    await app.deps.db.query("INSERT INTO site_settings (key, value) VALUES ('hero_title', 'Built in public')");
    await app.deps.db.query("INSERT INTO site_settings (key, value) VALUES ('contact_email', '   ')");
    const settings = (await (await app.call("/api/site-settings")).json()) as { key: string; value: string }[];
    const byKey = new Map(settings.map((setting) => [setting.key, setting.value]));
    expect(byKey.get("hero_title")).toBe("Built in public");
    expect(byKey.get("contact_email")).toBe("hello@example.com");
  });
});

describe("the shared handler", () => {
  it("answers an unknown API path with a 404 JSON error", async () => {
    const response = await app.call("/api/nothing-here");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Not found" });
  });

  it("answers a known path with the wrong method with 405 and the allowed methods", async () => {
    const response = await app.call("/api/health", { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });

  it("hides the details of an unexpected failure behind a generic 500, and logs them", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const failure = new Error("secret internals");
    const broken = createApiHandler({
      routes: [{ ...boom, handle: () => Promise.reject(failure) }],
      deps: () => Promise.resolve(app.deps),
    });
    const response = await broken(new Request("http://localhost/api/boom"), { ip: "127.0.0.1" });
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain("secret internals");
    expect(logged.mock.calls).toEqual([[expect.stringMatching(/^\[api\] GET \/api\/boom\b/), failure]]);
  });
});

describe("the headers netlify.toml gives the built pages, on a function's answers (issue 43 point 7)", () => {
  const page = { ...boom, path: "/api/page" };
  const handler = createApiHandler({
    routes: [
      {
        ...page,
        handle: () => Promise.resolve(new Response("<!doctype html><p>Hi</p>", { headers: { "content-type": "text/html; charset=utf-8" } })),
      },
    ],
    deps: () => Promise.resolve(app.deps),
  });

  it("a page gets the Permissions-Policy; over HTTPS every answer gets HSTS", async () => {
    const secure = await handler(new Request("https://example.com/api/page"), { ip: "127.0.0.1" });
    expect(secure.headers.get("permissions-policy")).toBe("camera=(), microphone=(), geolocation=()");
    expect(secure.headers.get("strict-transport-security")).toBe("max-age=31536000");
    const json = await app.call("/api/health");
    expect(json.headers.get("permissions-policy")).toBeNull();
  });

  it("plain HTTP (npm start) gets no HSTS, which a browser would ignore there", async () => {
    const plain = await handler(new Request("http://localhost/api/page"), { ip: "127.0.0.1" });
    expect(plain.headers.get("permissions-policy")).toBe("camera=(), microphone=(), geolocation=()");
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });

  it("sends the same values as netlify.toml does for the built pages", async () => {
    const toml = await import("node:fs/promises").then((fs) => fs.readFile(new URL("../../netlify.toml", import.meta.url), "utf8"));
    expect(toml).toContain('Permissions-Policy = "camera=(), microphone=(), geolocation=()"');
    expect(toml).toContain('Strict-Transport-Security = "max-age=31536000"');
  });
});
