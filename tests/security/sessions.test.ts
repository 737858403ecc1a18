import { randomBytes, scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCredentials } from "../../src/core/auth/admin-credentials.ts";
import { createSession, findSession, sessionIdleMs, sessionMaxMs } from "../../src/core/auth/sessions.ts";
import { createFakeClock } from "../support/fake-clock.ts";
import { featureDatabaseTargets, type TestDatabase } from "../support/test-databases.ts";

function cheapHash(plain: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(plain, salt, 32, { N: 1024, r: 8, p: 1 });
  return ["scrypt", 1024, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

describe.each(featureDatabaseTargets)("admin sessions on $name", (target) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await target.createMigrated();
  });
  afterAll(async () => {
    await testDb.drop();
  });
  const sessionCount = async () => (await testDb.db.query<{ n: number }>("SELECT count(*)::int AS n FROM admin_sessions")).rows[0]?.n;

  it("ends every session when ADMIN_PASSWORD_HASH changes, and keeps them while it does not", async () => {
    const clock = createFakeClock();
    const before = adminCredentials({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD_HASH: cheapHash("old password") });
    const { token } = await createSession({ db: testDb.db, now: () => clock.now(), admin: before });
    clock.advance(60_000);
    // A new function instance with the same variables: still signed in.
    const sameAgain = adminCredentials({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD_HASH: (await before.passwordHash()) ?? "" });
    expect(await findSession({ db: testDb.db, now: () => clock.now(), admin: sameAgain }, token)).not.toBeNull();
    const after = adminCredentials({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD_HASH: cheapHash("new password") });
    expect(await findSession({ db: testDb.db, now: () => clock.now(), admin: after }, token)).toBeNull();
    expect(await findSession({ db: testDb.db, now: () => clock.now(), admin: before }, token)).toBeNull();
  });

  it("ends every session when a local ADMIN_PASSWORD changes, but not on a restart with the same one", async () => {
    const clock = createFakeClock();
    const first = adminCredentials({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "a local password one" });
    const { token } = await createSession({ db: testDb.db, now: () => clock.now(), admin: first });
    const restarted = adminCredentials({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "a local password one" });
    expect(await findSession({ db: testDb.db, now: () => clock.now(), admin: restarted }, token)).not.toBeNull();
    const changed = adminCredentials({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "a local password two" });
    expect(await findSession({ db: testDb.db, now: () => clock.now(), admin: changed }, token)).toBeNull();
  });

  it("deletes expired and idle sessions, and those of old credentials, as sessions are checked", async () => {
    await testDb.db.query("DELETE FROM admin_sessions");
    const clock = createFakeClock();
    const admin = adminCredentials({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD_HASH: cheapHash("the password") });
    const old = adminCredentials({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD_HASH: cheapHash("an old password") });
    for (let i = 0; i < 3; i++) await createSession({ db: testDb.db, now: () => clock.now(), admin: old });
    expect(await sessionCount()).toBe(3);
    // The password changed: the first check, whatever its cookie, deletes the old sessions.
    expect(await findSession({ db: testDb.db, now: () => clock.now(), admin }, "a stale cookie")).toBeNull();
    expect(await sessionCount()).toBe(0);
    for (let i = 0; i < 5; i++) await createSession({ db: testDb.db, now: () => clock.now(), admin });
    clock.advance(sessionIdleMs - 1000);
    const { token: live } = await createSession({ db: testDb.db, now: () => clock.now(), admin });
    expect(await sessionCount()).toBe(6);
    clock.advance(2000);
    expect(await findSession({ db: testDb.db, now: () => clock.now(), admin }, live)).not.toBeNull();
    expect(await sessionCount()).toBe(1);
    clock.advance(sessionMaxMs);
    await createSession({ db: testDb.db, now: () => clock.now(), admin });
    expect(await sessionCount()).toBe(1);
  });
});
