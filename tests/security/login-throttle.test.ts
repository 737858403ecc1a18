import { randomBytes, scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminCredentials } from "../../src/core/auth/admin-credentials.ts";
import { logIn } from "../../src/core/auth/login.ts";
import { RateLimitedError, UnauthorizedError } from "../../src/core/errors.ts";
import { createFakeClock, type FakeClock } from "../support/fake-clock.ts";
import { featureDatabaseTargets, type TestDatabase } from "../support/test-databases.ts";
import { keyRing } from "../../src/core/shared/signer.ts";

const password = "the right password";

/** A cheap hash (N = 2^10) so 40 checks cost milliseconds; the format `ADMIN_PASSWORD_HASH` takes. */
function cheapHash(plain: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(plain, salt, 32, { N: 1024, r: 8, p: 1 });
  return ["scrypt", 1024, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** The admin's credentials, counting how many logins got as far as the password check. */
function countingAdmin(username = "admin"): AdminCredentials & { checks: () => number } {
  const hash = cheapHash(password);
  let checks = 0;
  return {
    username,
    passwordHash: () => {
      checks += 1;
      return Promise.resolve(hash);
    },
    fingerprint: () => Promise.resolve("test credentials"),
    checks: () => checks,
  };
}

async function outcome(attempt: Promise<unknown>): Promise<"ok" | 401 | 429> {
  try {
    await attempt;
    return "ok";
  } catch (error) {
    if (error instanceof UnauthorizedError) return 401;
    if (error instanceof RateLimitedError) return 429;
    throw error;
  }
}

describe.each(featureDatabaseTargets)("login throttle on $name", (target) => {
  let testDb: TestDatabase;
  let clock: FakeClock;
  beforeAll(async () => {
    testDb = await target.createMigrated();
  });
  afterAll(async () => {
    await testDb.drop();
  });
  const deps = (admin: AdminCredentials) => ({ db: testDb.db, admin, now: () => clock.now(), signer: keyRing(["s".repeat(48)]) });

  it("lets at most 5 of 40 concurrent wrong logins from one address reach the password check", async () => {
    clock = createFakeClock(new Date("2026-02-01T09:00:00Z"));
    const admin = countingAdmin();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => outcome(logIn(deps(admin), { username: "admin", password: `wrong ${String(i)}` }, "198.51.100.1"))),
    );
    console.info(`[security] ${target.name}: of 40 concurrent wrong logins from one address, ${String(admin.checks())} reached the password check`);
    expect(admin.checks()).toBeLessThanOrEqual(5);
    expect(results.filter((result) => result === 429).length).toBeGreaterThanOrEqual(35);
  });

  it("keys the address alone: rotating usernames buys no more password checks", async () => {
    clock = createFakeClock(new Date("2026-02-02T09:00:00Z"));
    const admin = countingAdmin();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => outcome(logIn(deps(admin), { username: `user${String(i)}`, password: "wrong" }, "198.51.100.2"))),
    );
    console.info(`[security] ${target.name}: of 40 concurrent logins rotating usernames, ${String(admin.checks())} reached the password check`);
    expect(admin.checks()).toBeLessThanOrEqual(5);
  });

  it("keys an IPv6 address by its /64", async () => {
    clock = createFakeClock(new Date("2026-02-03T09:00:00Z"));
    const admin = countingAdmin();
    const results: string[] = [];
    for (let i = 1; i <= 8; i++) {
      results.push(String(await outcome(logIn(deps(admin), { username: "admin", password: "wrong" }, `2001:db8:7:9::${i.toString(16)}`))));
    }
    expect(results).toEqual(["401", "401", "401", "401", "401", "429", "429", "429"]);
    expect(await outcome(logIn(deps(admin), { username: "admin", password: "wrong" }, "2001:db8:7:a::1"))).toBe(401);
  });

  it("answers 429 with when to retry, and lets the address in again after the window", async () => {
    clock = createFakeClock(new Date("2026-02-04T09:00:00Z"));
    const admin = countingAdmin();
    for (let i = 0; i < 5; i++) await outcome(logIn(deps(admin), { username: "admin", password: "wrong" }, "198.51.100.4"));
    const refused = await logIn(deps(admin), { username: "admin", password }, "198.51.100.4").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).message).toBe("Too many failed logins. Try again in 15 minutes.");
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(15 * 60);
    clock.advance(15 * 60 * 1000);
    expect(await outcome(logIn(deps(admin), { username: "admin", password }, "198.51.100.4"))).toBe("ok");
  });

  it("releases the reservation of a successful login", async () => {
    clock = createFakeClock(new Date("2026-02-05T09:00:00Z"));
    const admin = countingAdmin();
    for (let i = 0; i < 3; i++) await outcome(logIn(deps(admin), { username: "admin", password }, "198.51.100.5"));
    for (let i = 0; i < 5; i++) expect(await outcome(logIn(deps(admin), { username: "admin", password: "wrong" }, "198.51.100.5"))).toBe(401);
    expect(await outcome(logIn(deps(admin), { username: "admin", password: "wrong" }, "198.51.100.5"))).toBe(429);
  });

  it("gives the account a failure budget across addresses, then backs off exponentially", async () => {
    clock = createFakeClock(new Date("2026-02-06T09:00:00Z"));
    const admin = countingAdmin();
    const from = (i: number) => `203.0.113.${String(i)}`;
    const wrong = (i: number) => outcome(logIn(deps(admin), { username: "Admin", password: "wrong" }, from(i)));
    for (let i = 1; i <= 10; i++) expect(await wrong(i)).toBe(401);
    // The 11th failure locks the account for 1 s, the 12th for 2 s, the 13th for 4 s…
    expect(await wrong(11)).toBe(401);
    // …for every address that has had its one check through the lock (its lane, decision 0062).
    expect(await wrong(12)).toBe(401);
    const locked = await logIn(deps(admin), { username: "admin", password: "wrong" }, from(12)).catch((error: unknown) => error);
    expect(locked).toBeInstanceOf(RateLimitedError);
    expect((locked as RateLimitedError).retryAfterSeconds).toBe(1);
    expect((locked as RateLimitedError).message).toBe("Too many failed logins. Try again in 1 second.");
    clock.advance(1000);
    expect(await wrong(12)).toBe(401);
    clock.advance(1000);
    expect(await wrong(12)).toBe(429);
    clock.advance(1000);
    expect(await wrong(12)).toBe(401);
    clock.advance(3999);
    expect(await wrong(12)).toBe(429);
    clock.advance(1);
    // The owner, from an address of their own, waits out the lock and gets in; that clears the budget.
    expect(await outcome(logIn(deps(admin), { username: "admin", password }, from(17)))).toBe("ok");
    for (let i = 18; i <= 27; i++) expect(await wrong(i)).toBe(401);
  });

  it("lets 12 of 40 concurrent wrong logins from 40 addresses of one network reach the password check", async () => {
    clock = createFakeClock(new Date("2026-02-08T09:00:00Z"));
    const admin = countingAdmin();
    const wave = () =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) => outcome(logIn(deps(admin), { username: "admin", password: "wrong" }, `100.64.0.${String(i)}`))),
      );
    await wave();
    console.info(`[security] ${target.name}: of 40 concurrent wrong logins from 40 addresses, ${String(admin.checks())} reached the password check`);
    // 10 free failures, the 11th that locks the account, and one through the network's lane (decision 0062).
    expect(admin.checks()).toBe(12);
    expect((await wave()).every((result) => result === 429)).toBe(true);
    expect(admin.checks()).toBe(12);
  });

  it("lets the owner in from a new browser within a minute of 100 strangers' failures, while the strangers keep failing", async () => {
    clock = createFakeClock(new Date("2026-01-20T09:00:00Z"));
    // An account of its own, so the earlier tests' strangers do not count.
    const admin = countingAdmin("owner");
    const stranger = (i: number) =>
      outcome(logIn(deps(admin), { username: admin.username, password: `guess ${String(i)}` }, `198.18.${String(i % 20)}.1`));
    // 100 wrong guesses, one every 30 s from 20 addresses: enough to hold the account's lock at 15 minutes.
    const strangers: Awaited<ReturnType<typeof outcome>>[] = [];
    for (let i = 0; i < 100; i++) {
      strangers.push(await stranger(i));
      clock.advance(30_000);
    }
    expect(strangers).not.toContain("ok");
    // A browser with no device cookie, from the owner's address: in at once, or after at most a minute.
    const started = clock.now().getTime();
    let owner = await logIn(deps(admin), { username: admin.username, password }, "192.0.2.77").catch((error: unknown) => error);
    while (owner instanceof RateLimitedError && clock.now().getTime() - started < 60_000) {
      clock.advance(owner.retryAfterSeconds * 1000);
      owner = await logIn(deps(admin), { username: admin.username, password }, "192.0.2.77").catch((error: unknown) => error);
    }
    expect(owner).toMatchObject({ token: expect.any(String) as unknown });
    expect(clock.now().getTime() - started).toBeLessThanOrEqual(60_000);
    // The strangers' lock stands: from their addresses, one guess a second for a minute gets nowhere.
    const after: Awaited<ReturnType<typeof outcome>>[] = [];
    for (let i = 100; i < 160; i++) {
      after.push(await stranger(i));
      clock.advance(1000);
    }
    expect(after).not.toContain("ok");
    expect(after.filter((result) => result === 429).length).toBeGreaterThanOrEqual(45);
  }, 240_000);

  it("after a typo through its lane, the owner's address waits for the sooner of the account's lock and the lane's minute", async () => {
    clock = createFakeClock(new Date("2026-01-22T09:00:00Z"));
    const admin = countingAdmin("owner2");
    for (let i = 0; i < 11; i++) await outcome(logIn(deps(admin), { username: admin.username, password: "wrong" }, `198.19.${String(i)}.1`));
    expect(await outcome(logIn(deps(admin), { username: admin.username, password: "typo" }, "192.88.99.78"))).toBe(401);
    const waiting = await logIn(deps(admin), { username: admin.username, password }, "192.88.99.78").catch((error: unknown) => error);
    expect(waiting).toBeInstanceOf(RateLimitedError);
    // The account's own lock (1 s) is sooner than the lane's minute, and is what the answer names.
    expect((waiting as RateLimitedError).retryAfterSeconds).toBe(1);
    clock.advance(1000);
    expect(await outcome(logIn(deps(admin), { username: admin.username, password }, "192.88.99.78"))).toBe("ok");
  });

  it("deletes old attempts of every client (earlier tests included) as logins happen", async () => {
    clock = createFakeClock(new Date("2026-02-09T09:00:00Z"));
    const admin = countingAdmin();
    for (let i = 0; i < 20; i++) await outcome(logIn(deps(admin), { username: `old${String(i)}`, password: "wrong" }, `192.0.2.${String(i)}`));
    clock.advance(2 * 24 * 60 * 60 * 1000);
    // Each login deletes up to 100: three are enough for the rows the earlier tests left.
    for (let i = 0; i < 3; i++) await outcome(logIn(deps(admin), { username: "admin", password: "wrong" }, "192.0.2.200"));
    const { rows } = await testDb.db.query<{ key: string }>("SELECT key FROM login_throttle");
    expect(rows.map((row) => row.key).sort()).toEqual(["account:admin", "address:192.0.2.200"]);
  });
});
