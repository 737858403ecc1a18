import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testAdminPassword, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { DatabaseUnavailableError, UnauthorizedError, ValidationError } from "../errors.ts";
import { passkeyRequired, securityState, setPasskeyRequired } from "./admin-security.ts";
import { logIn } from "./login.ts";
import { challengeTtlMs, consumeChallenge, storeChallenge } from "./passkey-challenges.ts";
import { logInWithRecoveryCode } from "./passkey-login.ts";
import { deletePasskey, passkeyLoginOptions, passkeyRegistrationOptions, renamePasskey, verifyPasskeyLogin } from "./passkeys.ts";
import { pendingLoginTtlMs } from "./pending-logins.ts";
import { generateRecoveryCodes, recoveryCodesLeft, useRecoveryCode } from "./recovery-codes.ts";
import { findSession } from "./sessions.ts";

const clock = createFakeClock();
let app: TestApp;

/** A registered passkey, as registration would store it (real WebAuthn answers are made in the browser tests). */
async function storedPasskey(name: string): Promise<number> {
  const { rows } = await app.deps.db.query<{ id: number }>(
    "INSERT INTO admin_passkeys (credential_id, public_key, name, created_at) VALUES ($1, 'AAAA', $2, $3) RETURNING id",
    [`credential-${name}`, name, clock.now()],
  );
  return rows[0]?.id ?? 0;
}

let nextIp = 1;
const freshIp = () => `198.51.100.${String(nextIp++)}`;

describe.each(featureDatabaseTargets)("on $name", (target) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db, now: () => clock.now() });
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });
  beforeEach(async () => {
    await app.deps.db.query("UPDATE admin_security SET passkey_required = false");
    await app.deps.db.query("DELETE FROM admin_passkeys");
    await app.deps.db.query("DELETE FROM admin_recovery_codes");
    await app.deps.db.query("DELETE FROM login_throttle");
  });

  describe("passkey challenges", () => {
    it("are good once", async () => {
      await storeChallenge(app.deps, "challenge-once", "login");
      expect(await consumeChallenge(app.deps, "challenge-once", "login")).toBe(true);
      expect(await consumeChallenge(app.deps, "challenge-once", "login")).toBe(false);
    });

    it("are good for 5 minutes, and only for what they were issued for", async () => {
      await storeChallenge(app.deps, "challenge-late", "login");
      clock.advance(challengeTtlMs);
      expect(await consumeChallenge(app.deps, "challenge-late", "login")).toBe(false);
      await storeChallenge(app.deps, "challenge-registration", "registration");
      expect(await consumeChallenge(app.deps, "challenge-registration", "login")).toBe(false);
      clock.advance(challengeTtlMs - 1000);
      expect(await consumeChallenge(app.deps, "challenge-registration", "registration")).toBe(true);
    });

    it("are made for the site's host and stored by the options calls", async () => {
      const registration = await passkeyRegistrationOptions(app.deps);
      expect(registration.rp).toEqual({ id: "localhost", name: "No Filter" });
      expect(registration.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
      const login = await passkeyLoginOptions(app.deps, freshIp());
      expect(login.rpId).toBe("localhost");
      expect(login.userVerification).toBe("required");
      expect(login.allowCredentials).toBeUndefined();
      expect(await consumeChallenge(app.deps, login.challenge, "login")).toBe(true);
      expect(await consumeChallenge(app.deps, registration.challenge, "registration")).toBe(true);
    });

    it("a forged answer for a registered passkey is refused and uses its challenge up", async () => {
      await storedPasskey("laptop");
      const { challenge } = await passkeyLoginOptions(app.deps, freshIp());
      const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge, origin: "http://localhost:8888" })).toString("base64url");
      const forged = {
        id: "credential-laptop",
        rawId: "credential-laptop",
        type: "public-key" as const,
        response: { clientDataJSON, authenticatorData: "AAAA", signature: "AAAA" },
        clientExtensionResults: {},
      };
      await expect(verifyPasskeyLogin(app.deps, forged)).rejects.toBeInstanceOf(UnauthorizedError);
      expect(await consumeChallenge(app.deps, challenge, "login")).toBe(false);
    });
  });

  it("a database failure while verifying stays a database failure (503), not a refused passkey", async () => {
    await storedPasskey("desk");
    const { challenge } = await passkeyLoginOptions(app.deps, freshIp());
    const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge, origin: "http://localhost:8888" })).toString("base64url");
    const answer = {
      id: "credential-desk",
      rawId: "credential-desk",
      type: "public-key" as const,
      response: { clientDataJSON, authenticatorData: "AAAA", signature: "AAAA" },
      clientExtensionResults: {},
    };
    const failing = {
      ...app.deps,
      db: {
        ...app.deps.db,
        query: <Row>(sql: string, params?: readonly unknown[]) =>
          sql.includes("DELETE FROM passkey_challenges") ? Promise.reject(new DatabaseUnavailableError()) : app.deps.db.query<Row>(sql, params),
      },
    };
    await expect(verifyPasskeyLogin(failing, answer)).rejects.toBeInstanceOf(DatabaseUnavailableError);
  });

  describe("passkeys", () => {
    it("are listed with name, created and last used, renamed and removed", async () => {
      const id = await storedPasskey("phone");
      expect((await securityState(app.deps)).passkeys).toEqual([{ id, name: "phone", createdAt: clock.now().toISOString(), lastUsedAt: null }]);
      expect((await renamePasskey(app.deps, id, "work phone")).name).toBe("work phone");
      await deletePasskey(app.deps, id);
      expect((await securityState(app.deps)).passkeys).toEqual([]);
      await expect(deletePasskey(app.deps, id)).rejects.toThrow("This passkey no longer exists.");
    });

    it("the last one stays while a passkey is required", async () => {
      const first = await storedPasskey("first");
      const second = await storedPasskey("second");
      await generateRecoveryCodes(app.deps);
      await setPasskeyRequired(app.deps, true);
      await deletePasskey(app.deps, first);
      await expect(deletePasskey(app.deps, second)).rejects.toThrow(/turn off “Require a passkey” first/);
      expect((await securityState(app.deps)).passkeys.map((passkey) => passkey.name)).toEqual(["second"]);
    });
  });

  describe("recovery codes", () => {
    it("are ten, stored only as hashes, each usable once", async () => {
      const codes = await generateRecoveryCodes(app.deps);
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);
      const stored = await app.deps.db.query<{ code_hash: string }>("SELECT code_hash FROM admin_recovery_codes");
      const normalized = codes.map((code) => code.replaceAll("-", ""));
      expect(stored.rows.some((row) => codes.includes(row.code_hash) || normalized.includes(row.code_hash))).toBe(false);

      const [first = "", second = ""] = codes;
      expect(await useRecoveryCode(app.deps, ` ${first.toUpperCase().replaceAll("-", " ")} `)).toBe(true);
      expect(await useRecoveryCode(app.deps, first)).toBe(false);
      expect(await recoveryCodesLeft(app.deps)).toBe(9);
      // New codes replace the old ones.
      await generateRecoveryCodes(app.deps);
      expect(await useRecoveryCode(app.deps, second)).toBe(false);
      expect(await recoveryCodesLeft(app.deps)).toBe(10);
    });
  });

  describe("Require a passkey", () => {
    const password = { username: "admin", password: testAdminPassword };

    it("can't be turned on without a passkey and recovery codes", async () => {
      await expect(setPasskeyRequired(app.deps, true)).rejects.toThrow(/Register a passkey first/);
      await storedPasskey("key");
      await expect(setPasskeyRequired(app.deps, true)).rejects.toBeInstanceOf(ValidationError);
      await generateRecoveryCodes(app.deps);
      await setPasskeyRequired(app.deps, true);
      expect(await passkeyRequired(app.deps)).toBe(true);
    });

    it("makes a right password alone start no session, only a pending second step", async () => {
      expect(await logIn(app.deps, password, freshIp())).toHaveProperty("token");
      await storedPasskey("key");
      await generateRecoveryCodes(app.deps);
      await setPasskeyRequired(app.deps, true);
      const outcome = await logIn(app.deps, password, freshIp());
      expect(outcome).not.toHaveProperty("token");
      expect(outcome).toHaveProperty("pendingToken");
      expect(await findSession(app.deps, (outcome as { pendingToken: string }).pendingToken)).toBeNull();
    });

    it("takes a recovery code once as the second step, only after the password and within 5 minutes", async () => {
      await storedPasskey("key");
      const [code = "", other = ""] = await generateRecoveryCodes(app.deps);
      await setPasskeyRequired(app.deps, true);
      await expect(logInWithRecoveryCode(app.deps, { pendingToken: undefined, code }, freshIp())).rejects.toThrow(/enter your password again/);
      await expect(logInWithRecoveryCode(app.deps, { pendingToken: "forged", code }, freshIp())).rejects.toBeInstanceOf(UnauthorizedError);

      const { pendingToken } = (await logIn(app.deps, password, freshIp())) as { pendingToken: string };
      await expect(logInWithRecoveryCode(app.deps, { pendingToken, code: "0000-0000-0000-0000" }, freshIp())).rejects.toThrow(
        "Invalid recovery code.",
      );
      const { token } = await logInWithRecoveryCode(app.deps, { pendingToken, code }, freshIp());
      expect(await findSession(app.deps, token)).not.toBeNull();

      // The pending step is over, and the code is used up.
      await expect(logInWithRecoveryCode(app.deps, { pendingToken, code: other }, freshIp())).rejects.toThrow(/enter your password again/);
      const again = (await logIn(app.deps, password, freshIp())) as { pendingToken: string };
      await expect(logInWithRecoveryCode(app.deps, { pendingToken: again.pendingToken, code }, freshIp())).rejects.toThrow("Invalid recovery code.");

      const late = (await logIn(app.deps, password, freshIp())) as { pendingToken: string };
      clock.advance(pendingLoginTtlMs);
      await expect(logInWithRecoveryCode(app.deps, { pendingToken: late.pendingToken, code: other }, freshIp())).rejects.toThrow(
        /enter your password again/,
      );
    });

    it("recovery code guesses count against the login throttle", async () => {
      await storedPasskey("key");
      await generateRecoveryCodes(app.deps);
      await setPasskeyRequired(app.deps, true);
      const ip = freshIp();
      const { pendingToken } = (await logIn(app.deps, password, ip)) as { pendingToken: string };
      for (let attempt = 0; attempt < 5; attempt++) {
        await expect(logInWithRecoveryCode(app.deps, { pendingToken, code: `guess-${String(attempt)}` }, ip)).rejects.toBeInstanceOf(
          UnauthorizedError,
        );
      }
      await expect(logInWithRecoveryCode(app.deps, { pendingToken, code: "guess" }, ip)).rejects.toThrow(/Too many failed logins/);
    });
  });

  it("of concurrent answers to one challenge, and of concurrent uses of one code, exactly one passes", async () => {
    await storeChallenge(app.deps, "challenge-raced", "login");
    const challengeUses = await Promise.all(Array.from({ length: 10 }, () => consumeChallenge(app.deps, "challenge-raced", "login")));
    expect(challengeUses.filter(Boolean)).toHaveLength(1);
    const [code = ""] = await generateRecoveryCodes(app.deps);
    const codeUses = await Promise.all(Array.from({ length: 10 }, () => useRecoveryCode(app.deps, code)));
    expect(codeUses.filter(Boolean)).toHaveLength(1);
  });
});
