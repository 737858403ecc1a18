import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { scryptParametersProblem } from "./scrypt-parameters.ts";

/**
 * scrypt at OWASP's recommended minimum (N=2^17, r=8, p=1), stored as
 * `scrypt$N$r$p$salt$hash` with base64url salt and hash — the format `ADMIN_PASSWORD_HASH` takes.
 */
const defaults: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
const keyLength = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // 128 × N × r bytes are needed; allow twice that.
    scryptCallback(password, salt, keyLength, { ...options, maxmem: 256 * (options.N ?? 1) * (options.r ?? 8) }, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

/** scrypt's cost parameters, as stored in a hash. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** Hashes at OWASP's minimum unless told otherwise (only the in-memory hash of a plain local password is: admin-credentials.ts). */
export async function hashPassword(password: string, cost: ScryptCost = defaults): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Checks a password against a stored hash in constant time; a malformed or too costly hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  // Never run a cost a login can't afford (the environment refuses such a hash already).
  if (scryptParametersProblem(Number(n), Number(r), Number(p))) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(password, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
