import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, testAdminPassword, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const login = (body: unknown, ip = "203.0.113.7") =>
  app.handler(
    new Request(new URL("/api/auth/login", testOrigin), {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { ip },
  );
const cookieOf = (response: Response) => (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

describe("POST /api/auth/login", () => {
  it("starts a server session with an HttpOnly, SameSite=Strict cookie", async () => {
    const response = await login({ username: "admin", password: testAdminPassword });
    expect(response.status).toBe(200);
    const setCookie = response.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^nf_session=[\w-]{43,};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const session = await app.call("/api/auth/session", { headers: { cookie: cookieOf(response) } });
    expect(await session.json()).toEqual({ authenticated: true });
  });

  it("answers 400 when a field is missing or the body is not JSON", async () => {
    expect(await (await login({ username: "admin" })).json()).toEqual({ error: "Password is required" });
    expect(await (await login({ password: "x" })).json()).toEqual({ error: "Username is required" });
    const broken = await login("{not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: "The request body must be valid JSON" });
  });

  it("answers a wrong username and a wrong password the same way", async () => {
    const wrongUser = await login({ username: "root", password: testAdminPassword }, "198.51.100.1");
    const wrongPassword = await login({ username: "admin", password: "nope" }, "198.51.100.1");
    expect(wrongUser.status).toBe(401);
    expect(wrongPassword.status).toBe(401);
    expect(await wrongUser.json()).toEqual(await wrongPassword.json());
    expect(wrongUser.headers.get("set-cookie")).toBeNull();
  });

  it("throttles the sixth failure in 15 minutes per IP and username, with Retry-After", async () => {
    const ip = "198.51.100.99";
    for (let i = 0; i < 5; i++) expect((await login({ username: "admin", password: `wrong ${String(i)}` }, ip)).status).toBe(401);
    const throttled = await login({ username: "admin", password: testAdminPassword }, ip);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(((await throttled.json()) as { error: string }).error).toMatch(/Too many failed logins/);
    // Another client is not affected.
    expect((await login({ username: "admin", password: testAdminPassword }, "198.51.100.100")).status).toBe(200);
  });

  it("refuses a login posted from another site", async () => {
    const response = await app.handler(
      new Request(new URL("/api/auth/login", testOrigin), {
        method: "POST",
        headers: { origin: "https://evil.example", "content-type": "application/json" },
        body: JSON.stringify({ username: "admin", password: testAdminPassword }),
      }),
      { ip: "203.0.113.7" },
    );
    expect(response.status).toBe(403);
  });
});

describe("logout and session", () => {
  it("deletes the session on the server", async () => {
    const cookie = cookieOf(await login({ username: "admin", password: testAdminPassword }));
    const logout = await app.call("/api/auth/logout", { method: "POST", headers: { cookie, origin: testOrigin } });
    expect(logout.status).toBe(200);
    expect(logout.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    const session = await app.call("/api/auth/session", { headers: { cookie } });
    expect(await session.json()).toEqual({ authenticated: false });
  });
});
