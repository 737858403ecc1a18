import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { passwordHashPattern, readServerEnv } from "../src/config/server-env.ts";
import { verifyPassword } from "../src/core/auth/password.ts";

const script = fileURLToPath(new URL("./admin-hash.ts", import.meta.url));
const run = (input: string) => spawnSync(process.execPath, [script], { input, encoding: "utf8" });

describe("npm run admin:hash", () => {
  it("prints a hash of the password given on stdin that production accepts and login verifies", async () => {
    const result = run("a very long admin password\n");
    expect(result.status).toBe(0);
    const hash = result.stdout.trim();
    expect(hash).toMatch(passwordHashPattern);
    expect(readServerEnv({ ADMIN_PASSWORD_HASH: hash }).ADMIN_PASSWORD_HASH).toBe(hash);
    expect(await verifyPassword("a very long admin password", hash)).toBe(true);
  });

  it("refuses a short password", () => {
    const result = run("short");
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/at least 12 characters/);
    expect(result.stdout).toBe("");
  });
});
