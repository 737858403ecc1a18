import { describe, expect, it } from "vitest";
import { readServerEnv } from "../../src/config/server-env.ts";
import { verifyPassword } from "../../src/core/auth/password.ts";

const salt = "a".repeat(22);
const key = "b".repeat(43);
const hashWith = (n: number, r: number, p: number) => `scrypt$${String(n)}$${String(r)}$${String(p)}$${salt}$${key}`;
const problem = (hash: string) => {
  try {
    readServerEnv({ ADMIN_PASSWORD_HASH: hash });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe("ADMIN_PASSWORD_HASH: scrypt parameters a login can afford", () => {
  it("refuses N = 2^22 (4 GiB a login), naming the variable and the bound", () => {
    expect(problem(hashWith(2 ** 22, 8, 1))).toMatch(/ADMIN_PASSWORD_HASH: .*4 GiB.*at most 256 MiB/);
  });

  it("refuses r and p out of bounds, and N that is not a power of two", () => {
    expect(problem(hashWith(2 ** 14, 1024, 1))).toMatch(/ADMIN_PASSWORD_HASH: scrypt r = 1024 must be 1 to 32/);
    expect(problem(hashWith(2 ** 17, 32, 1))).toMatch(/ADMIN_PASSWORD_HASH: .*needs 512 MiB a login; at most 256 MiB/);
    expect(problem(hashWith(2 ** 17, 8, 64))).toMatch(/ADMIN_PASSWORD_HASH: .*p = 64/);
    expect(problem(hashWith(100_000, 8, 1))).toMatch(/ADMIN_PASSWORD_HASH: .*N = 100000 .*power of two/);
    expect(problem(hashWith(2 ** 17, 0, 1))).toMatch(/ADMIN_PASSWORD_HASH: /);
  });

  it("accepts what `npm run admin:hash` prints and OWASP's alternatives", () => {
    for (const [n, r, p] of [
      [2 ** 17, 8, 1],
      [2 ** 18, 8, 1],
      [2 ** 16, 8, 2],
      [2 ** 13, 8, 10],
    ] as const) {
      expect(problem(hashWith(n, r, p))).toBeUndefined();
    }
  });

  it("never runs scrypt for a hash out of bounds, wherever it came from", async () => {
    const started = performance.now();
    expect(await verifyPassword("anything", hashWith(2 ** 20, 8, 1))).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe("BUILD_HOOK_URL is a secret in environment messages", () => {
  it("names the variable without its value", () => {
    const message = problem("x") ?? "";
    expect(message).toMatch(/ADMIN_PASSWORD_HASH/);
    let hookMessage = "";
    try {
      readServerEnv({ BUILD_HOOK_URL: "ftp://api.netlify.com/build_hooks/5f0c1e2d3b4a5968778695a4" });
    } catch (error) {
      hookMessage = (error as Error).message;
    }
    expect(hookMessage).toMatch(/BUILD_HOOK_URL: must be an http\(s\) URL/);
    expect(hookMessage).not.toContain("5f0c1e2d3b4a5968778695a4");
  });
});
