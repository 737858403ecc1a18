/**
 * The scrypt costs a login may run. Memory is 128 × N × r bytes: at most 256 MiB (N = 2^18 with
 * r = 8, twice OWASP's minimum). Time grows with N × r × p: at most 4 × OWASP's minimum
 * (N × r × p ≤ 2^22). A hash beyond these (N = 2^22 would need 4 GiB a login) is refused.
 */
export const scryptLimits = { maxMemoryBytes: 256 * 2 ** 20, maxWork: 2 ** 22, maxR: 32, maxP: 16 };

/** Why scrypt with these parameters is refused, or undefined when a login can afford it. */
export function scryptParametersProblem(n: number, r: number, p: number): string | undefined {
  if (!Number.isSafeInteger(n) || n < 2 || (n & (n - 1)) !== 0) return `scrypt N = ${String(n)} must be a power of two`;
  if (!Number.isSafeInteger(r) || r < 1 || r > scryptLimits.maxR) return `scrypt r = ${String(r)} must be 1 to ${String(scryptLimits.maxR)}`;
  if (!Number.isSafeInteger(p) || p < 1 || p > scryptLimits.maxP) return `scrypt p = ${String(p)} must be 1 to ${String(scryptLimits.maxP)}`;
  const memory = 128 * n * r;
  if (memory > scryptLimits.maxMemoryBytes) {
    return `scrypt N = ${String(n)}, r = ${String(r)} needs ${mebibytes(memory)} a login; at most 256 MiB is allowed (N = 131072, r = 8 is the default)`;
  }
  if (n * r * p > scryptLimits.maxWork) {
    return `scrypt N × r × p = ${String(n * r * p)} takes too long a login; at most ${String(scryptLimits.maxWork)} is allowed (N = 131072, r = 8, p = 1 is the default)`;
  }
  return undefined;
}

function mebibytes(bytes: number): string {
  return bytes >= 2 ** 30 ? `${String(bytes / 2 ** 30)} GiB` : `${String(bytes / 2 ** 20)} MiB`;
}
