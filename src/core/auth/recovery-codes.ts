import { createHash, randomBytes } from "node:crypto";
import type { SqlExecutor } from "../db/sql-executor.ts";

export const recoveryCodeCount = 10;

// Crockford's base32, lower case: no i, l, o or u to misread.
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

/** 80 random bits as 16 characters, `xxxx-xxxx-xxxx-xxxx`. */
function newCode(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let text = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += alphabet[(value >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return text.match(/.{4}/g)?.join("-") ?? text;
}

/**
 * What is stored of a code: SHA-256 of it, spaces, dashes and case ignored. A slow hash (scrypt)
 * protects guessable secrets like passwords; these codes carry 80 random bits, so even a stolen
 * table can't be searched (2^80 SHA-256 runs), and a fast hash lets one indexed lookup check a code
 * without running scrypt ten times per attempt.
 */
function hashCode(code: string): string {
  return createHash("sha256").update(code.toLowerCase().replace(/[\s-]/g, "")).digest("hex");
}

/** Replaces every recovery code with ten new ones; the codes themselves are returned once and kept nowhere. */
export async function generateRecoveryCodes(deps: { db: SqlExecutor; now: () => Date }): Promise<string[]> {
  const codes = Array.from({ length: recoveryCodeCount }, newCode);
  const createdAt = deps.now();
  await deps.db.transaction(async (tx) => {
    await tx.query("DELETE FROM admin_recovery_codes");
    for (const code of codes) await tx.query("INSERT INTO admin_recovery_codes (code_hash, created_at) VALUES ($1, $2)", [hashCode(code), createdAt]);
  });
  return codes;
}

export async function recoveryCodesLeft(deps: { db: Pick<SqlExecutor, "query"> }): Promise<number> {
  const { rows } = await deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM admin_recovery_codes");
  return rows[0]?.n ?? 0;
}

/** Uses a code up: true once for each code that was generated (one statement deletes it). */
export async function useRecoveryCode(deps: { db: Pick<SqlExecutor, "query"> }, code: string): Promise<boolean> {
  const { rows } = await deps.db.query("DELETE FROM admin_recovery_codes WHERE code_hash = $1 RETURNING code_hash", [hashCode(code)]);
  return rows.length > 0;
}
