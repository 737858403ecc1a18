import { randomBytes, scryptSync } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../support/fake-clock.ts";
import { createTestApp, testAdminPassword, testOrigin, type TestApp } from "../support/test-app.ts";
import { registerSoftwarePasskey, type SoftwarePasskey } from "./software-passkey.ts";

/**
 * Issue 26, item 1: no number of failed logins by others, from any number of addresses, delays the
 * owner's sign-in with a passkey, or with the right password from a browser that signed in before
 * (its device cookie). Strangers stay throttled. Through the real API, cookies and all.
 */
const clock = createFakeClock(new Date("2026-03-02T09:00:00Z"));
let app: TestApp;
let passkey: SoftwarePasskey;
/** How many logins got as far as the password check. */
let checks = 0;

/** A cheap hash (N = 2^10) of the test password, so a thousand logins cost seconds, not minutes. */
function cheapHash(plain: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(plain, salt, 32, { N: 1024, r: 8, p: 1 });
  return ["scrypt", 1024, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

const cookieOf = (response: Response, name: string): string =>
  response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0] ?? "")
    .find((pair) => pair.startsWith(`${name}=`)) ?? "";

function post(path: string, body: unknown, ip: string, cookie = ""): Promise<Response> {
  return app.handler(
    new Request(new URL(path, testOrigin), {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json", ...(cookie && { cookie }) },
      body: JSON.stringify(body),
    }),
    { ip },
  );
}

const login = (password: string, ip: string, cookie = "") => post("/api/auth/login", { username: "admin", password }, ip, cookie);

async function passkeyLogin(ip: string, cookie = ""): Promise<Response> {
  const options = await post("/api/auth/passkeys/login/options", {}, ip, cookie);
  expect(options.status).toBe(200);
  const { challenge } = (await options.json()) as { challenge: string };
  return post("/api/auth/passkeys/login/verify", { response: passkey.answer(challenge, testOrigin) }, ip, cookie);
}

/** A flood of wrong passwords for the owner's username, one a second, round-robin over `addresses` addresses. */
async function flood(attempts: number, addresses: number): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  for (let i = 0; i < attempts; i++) {
    const response = await login(`guess ${String(i)}`, `198.18.${String(i % addresses)}.1`);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    clock.advance(1000);
  }
  return statuses;
}

describe("the owner always gets in", () => {
  beforeAll(async () => {
    app = await createTestApp({ now: () => clock.now() });
    const hash = cheapHash(testAdminPassword);
    app.deps.admin = {
      username: "admin",
      passwordHash: () => {
        checks += 1;
        return Promise.resolve(hash);
      },
      fingerprint: () => Promise.resolve("cheap test credentials"),
    };
    passkey = await registerSoftwarePasskey(app.deps.db, "test key", clock.now());
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await app.deps.db.query("DELETE FROM login_throttle");
    await app.deps.db.query("DELETE FROM rate_limit_counters");
  });

  it("after 1,000 failed logins from 50 addresses: the owner's browser gets in with the password at once, and with a passkey", async () => {
    const first = await login(testAdminPassword, "192.0.2.10");
    expect(first.status).toBe(200);
    const device = cookieOf(first, "nf_device");
    expect(device).toMatch(/^nf_device=[\w-]{22}\.\d+\.[\w-]{43}$/);
    expect(first.headers.getSetCookie().find((header) => header.startsWith("nf_device="))).toMatch(/HttpOnly; SameSite=Strict/);

    const checksBefore = checks;
    const statuses = await flood(1000, 50);
    console.info(
      `[security] 1,000 wrong logins from 50 addresses, one a second: answers ${JSON.stringify(statuses)}, ` +
        `${String(checks - checksBefore)} reached the password check`,
    );
    // 10 free failures, a check each time the account's lock ends, and each of the 50 networks' lanes
    // through the lock (1 minute, then 2, 4, 8…: decision 0062).
    expect(checks - checksBefore).toBeLessThanOrEqual(230);

    // A new browser with the right password (the owner's, no device cookie) from a network the flood
    // did not use: in through that network's lane, though the account is locked for the strangers.
    const stranger = await login(testAdminPassword, "192.0.2.99");
    expect(stranger.status).toBe(200);

    // The owner's browser, even from an address the flood used: in at once.
    const owner = await login(testAdminPassword, "198.18.7.1", device);
    expect(owner.status).toBe(200);
    expect(cookieOf(owner, "nf_session")).toMatch(/^nf_session=[\w-]{43,}$/);

    // A passkey: from the owner's browser at a flooded address, and from a new browser elsewhere.
    const withDevice = await passkeyLogin("198.18.7.1", device);
    expect(withDevice.status).toBe(200);
    expect(cookieOf(withDevice, "nf_session")).toMatch(/^nf_session=/);
    expect((await passkeyLogin("192.0.2.11")).status).toBe(200);
    console.info(
      `[security] after the flood: a new browser with the right password ${String(stranger.status)}, ` +
        `owner's browser with the password ${String(owner.status)}, passkey ${String(withDevice.status)}`,
    );
  }, 120_000);

  it("a passkey is never held up by failed passwords, even from the flooded address with no device cookie", async () => {
    await flood(40, 4);
    expect((await passkeyLogin("198.18.1.1")).status).toBe(200);
  });

  it("a device cookie has a budget of its own: 10 failures an hour, then it counts for nothing until the hour is over", async () => {
    const device = cookieOf(await login(testAdminPassword, "192.0.2.20"), "nf_device");
    await flood(40, 40);
    for (let i = 0; i < 10; i++) expect((await login(`typo ${String(i)}`, "192.0.2.20", device)).status).toBe(401);
    // Spent: the attempt is a stranger's, with the network's one check through the lock, then locked out.
    expect((await login("typo 10", "192.0.2.20", device)).status).toBe(401);
    expect((await login(testAdminPassword, "192.0.2.20", device)).status).toBe(429);
    clock.advance(60 * 60 * 1000);
    expect((await login(testAdminPassword, "192.0.2.20", device)).status).toBe(200);
  });

  it("a forged or tampered device cookie counts for nothing", async () => {
    const device = cookieOf(await login(testAdminPassword, "192.0.2.30"), "nf_device");
    await flood(40, 40);
    const [nonce = "", expires = "", signature = ""] = device.slice("nf_device=".length).split(".");
    const tampered = [
      `nf_device=${nonce}.${String(Number(expires) + 1)}.${signature}`,
      `nf_device=${"A".repeat(22)}.${expires}.${signature}`,
      `nf_device=${nonce}.${expires}.${"A".repeat(43)}`,
      "nf_device=anything",
    ];
    // The network's lane through the lock spent by a wrong guess: a bad cookie is a stranger's, locked out.
    expect((await login("guess", "192.0.2.32")).status).toBe(401);
    for (const cookie of tampered) expect((await login(testAdminPassword, "192.0.2.31", cookie)).status).toBe(429);
    expect((await login(testAdminPassword, "192.0.2.31", device)).status).toBe(200);
  });

  it("a device cookie is good for a year, and for its own username only", async () => {
    const device = cookieOf(await login(testAdminPassword, "192.0.2.40"), "nf_device");
    await flood(40, 40);
    const other = await post("/api/auth/login", { username: "someone", password: "x" }, "192.0.2.41", device);
    // Another username: a stranger's attempt, counted against the address (and refused as wrong).
    expect(other.status).toBe(401);
    clock.advance(365 * 24 * 60 * 60 * 1000);
    await flood(40, 40);
    expect((await login("guess", "192.0.2.42")).status).toBe(401);
    expect((await login(testAdminPassword, "192.0.2.40", device)).status).toBe(429);
  });

  it("a stranger with any number of addresses gets 29 password checks in the first hour, then 4.2 an hour", async () => {
    /** The best a stranger can do: a new address each try, and each try the moment the lock ends. */
    async function attackFor(ms: number): Promise<number> {
      const end = clock.now().getTime() + ms;
      const checksBefore = checks;
      for (let i = 0; clock.now().getTime() < end; i++) {
        const response = await login(`guess ${String(i)}`, `100.64.${String(Math.floor(i / 250))}.${String(i % 250)}`);
        if (response.status === 429) clock.advance(Number(response.headers.get("retry-after")) * 1000);
      }
      return checks - checksBefore;
    }
    const firstHour = await attackFor(60 * 60 * 1000);
    const nextDay = await attackFor(23 * 60 * 60 * 1000);
    console.info(
      `[security] a stranger's cost: ${String(firstHour)} password checks in the first hour, ` +
        `${String(nextDay)} in the next 23 hours (${(nextDay / 23).toFixed(1)} an hour)`,
    );
    // 23 and 4.0 before the lanes through the lock (decision 0062): each /24 the stranger uses adds its own.
    expect(firstHour).toBeLessThanOrEqual(30);
    expect(nextDay / 23).toBeLessThanOrEqual(4.3);
  }, 120_000);
});
