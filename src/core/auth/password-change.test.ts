import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testAdminPassword, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { adminCredentials } from "./admin-credentials.ts";
import { ownerPasswordHash } from "./owner-password.ts";
import { hashPassword } from "./password.ts";
import { recentSignInMs } from "./recent-sign-in.ts";

const clock = createFakeClock(new Date("2026-11-27T09:00:00Z"));
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ clock, env: { ADMIN_PASSWORD_GENERATED: "1" } });
});
afterAll(async () => {
  await app.close();
});

const login = async (password: string) => {
  const response = await app.handler(
    new Request(new URL("/api/auth/login", testOrigin), {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password }),
    }),
    { ip: "198.51.100.9" },
  );
  return { status: response.status, cookie: (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "" };
};
const change = (cookie: string | undefined, body: unknown) =>
  app.call("/api/auth/password", {
    method: "PUT",
    headers: { cookie: cookie ?? "", origin: testOrigin, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const passwordItem = async (headers: Record<string, string>) =>
  ((await (await app.call("/api/setup-checklist", { headers })).json()) as { items: { key: string; done: boolean }[] }).items.find(
    (item) => item.key === "admin-password",
  );

describe("changing the owner's password in the dashboard", () => {
  it("needs the current password or a recent sign-in, ends the other sessions and ticks the checklist", async () => {
    const { cookie } = await app.adminHeaders();
    const other = await app.adminHeaders();
    expect(await passwordItem({ cookie: cookie ?? "" })).toMatchObject({ done: false });

    // Too short: the form's own rule.
    expect(await (await change(cookie, { newPassword: "short" })).json()).toEqual({ error: "Use at least 12 characters." });
    // Past 5 minutes, no current password: "Confirm it's you".
    clock.advance(recentSignInMs);
    const stale = await change(cookie, { newPassword: "a brand new password" });
    expect(stale.status).toBe(403);
    expect(await stale.json()).toMatchObject({ code: "recent_sign_in_required" });
    // A wrong current password is a 403 that keeps the session.
    const wrong = await change(cookie, { currentPassword: "not it at all", newPassword: "a brand new password" });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ code: "sign_in_failed", error: "Your current password is wrong. Please try again." });

    const changed = await change(cookie, { currentPassword: testAdminPassword, newPassword: "a brand new password" });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ source: "dashboard", environmentHash: false, changedAt: clock.now().toISOString() });
    // This session goes on, the other one is over; the old password no longer signs in, the new one does.
    expect(await (await app.call("/api/auth/session", { headers: { cookie: cookie ?? "" } })).json()).toEqual({ authenticated: true });
    expect(await (await app.call("/api/auth/session", { headers: { cookie: other.cookie ?? "" } })).json()).toEqual({ authenticated: false });
    expect((await login(testAdminPassword)).status).toBe(401);
    const fresh = await login("a brand new password");
    expect(fresh.status).toBe(200);
    // Signed in a moment ago: no current password needed.
    expect((await change(fresh.cookie, { newPassword: "another new password" })).status).toBe(200);
    expect(await passwordItem({ cookie: fresh.cookie })).toMatchObject({ done: true });
    // scrypt at its production cost, a few times over, on a shared machine.
  }, 180_000);

  it("gives way to a new password set in the environment (the way back in)", async () => {
    await app.deps.db.query("UPDATE admin_security SET password_hash = $1, password_environment = $2, password_changed_at = now() WHERE id = 1", [
      await hashPassword("set in the dashboard"),
      await app.deps.admin.fingerprint(),
    ]);
    expect(await ownerPasswordHash(app.deps)).not.toBe(await app.deps.admin.passwordHash());
    const newEnvironment = adminCredentials({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD_HASH: await hashPassword("from the environment") });
    const deps = { ...app.deps, admin: newEnvironment };
    expect(await ownerPasswordHash(deps)).toBe(await newEnvironment.passwordHash());
  }, 60_000);
});
