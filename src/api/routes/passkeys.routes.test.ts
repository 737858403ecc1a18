import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, testAdminPassword, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const post = (path: string, body: unknown, cookie = "") =>
  app.handler(
    new Request(new URL(path, testOrigin), {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json", ...(cookie && { cookie }) },
      body: JSON.stringify(body),
    }),
    { ip: "203.0.113.50" },
  );
const cookiesOf = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(";")[0] ?? "");

describe("the Security area's routes", () => {
  it("need a session", async () => {
    expect((await app.call("/api/auth/security")).status).toBe(401);
    expect((await post("/api/auth/recovery-codes", {})).status).toBe(401);
    expect((await post("/api/auth/passkeys/registration/options", {})).status).toBe(401);
  });

  it("show passkeys, the requirement and recovery codes left; codes are shown once", async () => {
    const headers = await app.adminHeaders();
    const generated = await app.call("/api/auth/recovery-codes", { method: "POST", headers });
    expect(generated.status).toBe(201);
    expect(((await generated.json()) as { codes: string[] }).codes).toHaveLength(10);
    const state = await app.call("/api/auth/security", { headers });
    expect(await state.json()).toEqual({
      passkeys: [],
      passkeyRequired: false,
      recoveryCodesLeft: 10,
      // Which password signs in (issue 41: the dashboard can change it; the environment's wins when it changes).
      password: { source: "environment", changedAt: null, environmentHash: false },
    });
    expect(state.headers.get("cache-control")).toBe("no-store");
  });

  it("refuse to require a passkey before one is registered", async () => {
    const headers = { ...(await app.adminHeaders()), "content-type": "application/json" };
    const response = await app.call("/api/auth/passkey-requirement", { method: "PUT", headers, body: JSON.stringify({ required: true }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Register a passkey first: a password login would then need one." });
  });
});

describe("a password login when a passkey is required", () => {
  it("answers secondStep without a session; a recovery code completes it once", async () => {
    const headers = await app.adminHeaders();
    await app.deps.db.query("INSERT INTO admin_passkeys (credential_id, public_key, name, created_at) VALUES ('credential-x', 'AAAA', 'x', now())");
    const { codes } = (await (await app.call("/api/auth/recovery-codes", { method: "POST", headers })).json()) as { codes: string[] };
    const jsonHeaders = { ...headers, "content-type": "application/json" };
    const put = (required: boolean) =>
      app.call("/api/auth/passkey-requirement", { method: "PUT", headers: jsonHeaders, body: JSON.stringify({ required }) });
    expect(await (await put(true)).json()).toEqual({ required: true });
    try {
      const password = await post("/api/auth/login", { username: "admin", password: testAdminPassword });
      expect(password.status).toBe(200);
      expect(await password.json()).toEqual({ authenticated: false, secondStep: "passkey" });
      const [pending = ""] = cookiesOf(password);
      expect(pending).toMatch(/^nf_login_step=[\w-]{43}$/);
      expect(password.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);

      const step = await post("/api/auth/login/recovery-code", { code: codes[0] }, pending);
      expect(step.status).toBe(200);
      expect(await step.json()).toEqual({ authenticated: true });
      const [session = "", cleared = ""] = cookiesOf(step);
      expect(session).toMatch(/^nf_session=/);
      expect(cleared).toBe("nf_login_step=");
      expect(await (await app.call("/api/auth/session", { headers: { cookie: session } })).json()).toEqual({ authenticated: true });

      const again = await post("/api/auth/login/recovery-code", { code: codes[0] }, pending);
      expect(again.status).toBe(401);
    } finally {
      await put(false);
    }
  });

  it("a passkey login with an unknown credential is a 401, and options are public", async () => {
    const options = await post("/api/auth/passkeys/login/options", {});
    expect(options.status).toBe(200);
    const { challenge, rpId } = (await options.json()) as { challenge: string; rpId: string };
    expect(rpId).toBe("localhost");
    const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge, origin: testOrigin })).toString("base64url");
    const response = { id: "unknown", rawId: "unknown", type: "public-key", response: { clientDataJSON }, clientExtensionResults: {} };
    const login = await post("/api/auth/passkeys/login/verify", { response });
    expect(login.status).toBe(401);
    expect(await login.json()).toEqual({ error: "This passkey is not registered here." });
    expect((await post("/api/auth/passkeys/login/verify", { response: "nope" })).status).toBe(400);
  });
});
