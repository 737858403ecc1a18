import { describe, expect, it } from "vitest";
import { passwordHashPattern } from "../../config/server-env.ts";
import { adminCredentials } from "./admin-credentials.ts";
import { hashPassword, verifyPassword } from "./password.ts";

describe("admin password hashing", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(passwordHashPattern);
    expect(hash.startsWith("scrypt$131072$8$1$")).toBe(true);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
  });

  it("salts every hash, and never matches a malformed one", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
    expect(await verifyPassword("x", "plaintext")).toBe(false);
    expect(await verifyPassword("x", "scrypt$1$2$3$$")).toBe(false);
  });
});

describe("admin credentials", () => {
  it("hashes a plain ADMIN_PASSWORD in memory, once, at the session fingerprint's cost", async () => {
    const admin = adminCredentials({ ADMIN_USERNAME: "owner", ADMIN_PASSWORD: "a long local password" });
    const hash = await admin.passwordHash();
    expect(hash).toMatch(passwordHashPattern);
    expect(hash?.startsWith("scrypt$16384$8$1$")).toBe(true);
    expect(await admin.passwordHash()).toBe(hash);
    expect(await verifyPassword("a long local password", hash ?? "")).toBe(true);
    expect(admin.username).toBe("owner");
  });

  it("uses ADMIN_PASSWORD_HASH as given, and has none when neither is set", async () => {
    const given = await hashPassword("from the hash");
    expect(await adminCredentials({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD_HASH: given }).passwordHash()).toBe(given);
    expect(await adminCredentials({ ADMIN_USERNAME: "admin" }).passwordHash()).toBeUndefined();
  });
});
