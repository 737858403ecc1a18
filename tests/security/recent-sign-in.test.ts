import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../support/fake-clock.ts";
import { createTestApp, testAdminPassword, testOrigin, type TestApp } from "../support/test-app.ts";
import { registerSoftwarePasskey, type SoftwarePasskey } from "./software-passkey.ts";

/**
 * Issue 26, item 6 ("sudo mode"): adding or removing a passkey, turning "Require a passkey" off and
 * new recovery codes need a sign-in from the last 5 minutes, so a stolen session is not a lasting
 * takeover. A stale session gets 403 with `code: recent_sign_in_required`, and
 * POST /api/auth/reauthenticate (password or passkey) makes it fresh again.
 */
const clock = createFakeClock(new Date("2026-03-09T09:00:00Z"));
let app: TestApp;
let passkey: SoftwarePasskey;
let headers: Record<string, string>;

const call = (method: string, path: string, body?: unknown) =>
  app.call(path, {
    method,
    headers: { ...headers, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

/** Every security change, each tried once as the owner would. */
const changes = {
  "new recovery codes": () => call("POST", "/api/auth/recovery-codes"),
  "passkey registration options": () => call("POST", "/api/auth/passkeys/registration/options"),
  "registering a passkey": () =>
    call("POST", "/api/auth/passkeys/registration/verify", {
      name: "stolen",
      response: { id: "x", rawId: "x", type: "public-key", response: {}, clientExtensionResults: {} },
    }),
  "removing a passkey": () => call("DELETE", "/api/auth/passkeys/999999"),
  "turning “Require a passkey” off": () => call("PUT", "/api/auth/passkey-requirement", { required: false }),
};

async function refusedAsStale(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  const body = (await response.json()) as { error: string; code?: string };
  expect(body).toEqual({
    error: "Please confirm it's you: sign in again to change your security settings.",
    code: "recent_sign_in_required",
  });
  return true;
}

describe("a security change needs a sign-in from the last 5 minutes", () => {
  beforeAll(async () => {
    app = await createTestApp({ now: () => clock.now() });
    passkey = await registerSoftwarePasskey(app.deps.db, "test key", clock.now());
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    headers = await app.adminHeaders();
    await app.deps.db.query("DELETE FROM login_throttle");
  });

  it("fresh: allowed; 6 minutes later: refused with a code; after re-authenticating with the password: allowed", async () => {
    expect((await call("POST", "/api/auth/recovery-codes")).status).toBe(201);
    clock.advance(4 * 60 * 1000 + 59_000);
    expect((await call("POST", "/api/auth/recovery-codes")).status).toBe(201);
    clock.advance(61_000);
    for (const [name, change] of Object.entries(changes)) {
      expect(await refusedAsStale(await change()), name).toBe(true);
    }
    // What needs no fresh sign-in still works: the session is live.
    expect((await call("GET", "/api/auth/security")).status).toBe(200);

    const wrong = await call("POST", "/api/auth/reauthenticate", { password: "not it" });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({ error: "Wrong password. Please try again.", code: "sign_in_failed" });
    expect(await refusedAsStale(await call("POST", "/api/auth/recovery-codes"))).toBe(true);

    const confirmed = await call("POST", "/api/auth/reauthenticate", { password: testAdminPassword });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ signedInAt: clock.now().toISOString() });
    expect((await call("POST", "/api/auth/recovery-codes")).status).toBe(201);
    expect((await call("POST", "/api/auth/passkeys/registration/options")).status).toBe(200);
    clock.advance(5 * 60 * 1000);
    expect(await refusedAsStale(await call("POST", "/api/auth/recovery-codes"))).toBe(true);
  });

  it("re-authenticates with a passkey, the only way while “Require a passkey” is on", async () => {
    expect((await call("POST", "/api/auth/recovery-codes")).status).toBe(201);
    expect((await call("PUT", "/api/auth/passkey-requirement", { required: true })).status).toBe(200);
    clock.advance(6 * 60 * 1000);
    expect(await refusedAsStale(await call("PUT", "/api/auth/passkey-requirement", { required: false }))).toBe(true);
    // Turning it on only makes signing in harder: no fresh sign-in needed.
    expect((await call("PUT", "/api/auth/passkey-requirement", { required: true })).status).toBe(200);

    const password = await call("POST", "/api/auth/reauthenticate", { password: testAdminPassword });
    expect(password.status).toBe(400);
    expect(await password.json()).toEqual({ error: "A passkey is required to sign in: confirm with your passkey." });

    const options = await call("POST", "/api/auth/passkeys/login/options");
    const { challenge } = (await options.json()) as { challenge: string };
    const confirmed = await call("POST", "/api/auth/reauthenticate", { response: passkey.answer(challenge, testOrigin) });
    expect(confirmed.status).toBe(200);
    expect((await call("PUT", "/api/auth/passkey-requirement", { required: false })).status).toBe(200);
  });

  it("a login is a fresh sign-in; re-authenticating needs a live session", async () => {
    clock.advance(60 * 60 * 1000);
    const login = await app.call("/api/auth/login", {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: testAdminPassword }),
    });
    headers = { origin: testOrigin, cookie: login.headers.getSetCookie()[0]?.split(";")[0] ?? "" };
    expect((await call("POST", "/api/auth/recovery-codes")).status).toBe(201);
    headers = { origin: testOrigin };
    expect((await call("POST", "/api/auth/reauthenticate", { password: testAdminPassword })).status).toBe(401);
  });
});
