import { createHash, timingSafeEqual } from "node:crypto";
import type { AppDeps } from "../app-deps.ts";
import { RateLimitedError, UnauthorizedError } from "../errors.ts";
import type { LoginInput } from "./login.schema.ts";
import { verifyPassword } from "./password.ts";
import { createSession } from "./sessions.ts";

/** At most 5 failed logins per 15 minutes per client IP + username. */
export const loginThrottle = { maxFailures: 5, windowMs: 15 * 60 * 1000 };

// A fixed valid hash to verify against when no password is configured, so every answer costs the same.
const unusableHash = "scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Checks the admin's credentials and starts a session. A wrong username and a wrong password get
 * the same answer after the same work (the password hash is always verified). Failures are
 * counted per client IP + username in the database; the sixth within the window gets 429.
 */
export async function logIn(deps: Pick<AppDeps, "db" | "admin" | "now">, input: LoginInput, clientIp: string): Promise<{ token: string }> {
  const clientKey = `${clientIp}|${input.username.toLowerCase()}`;
  const now = deps.now();
  const since = new Date(now.getTime() - loginThrottle.windowMs);
  const { rows } = await deps.db.query<{ failures: number; oldest: Date | null }>(
    "SELECT count(*)::int AS failures, min(attempted_at) AS oldest FROM login_attempts WHERE client_key = $1 AND attempted_at > $2",
    [clientKey, since],
  );
  const failures = rows[0]?.failures ?? 0;
  if (failures >= loginThrottle.maxFailures) {
    const oldest = rows[0]?.oldest ?? now;
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest.getTime() + loginThrottle.windowMs - now.getTime()) / 1000));
    const minutes = Math.ceil(retryAfterSeconds / 60);
    throw new RateLimitedError(
      `Too many failed logins. Try again in ${minutes === 1 ? "1 minute" : `${String(minutes)} minutes`}.`,
      retryAfterSeconds,
    );
  }

  const hash = await deps.admin.passwordHash();
  const passwordOk = await verifyPassword(input.password, hash ?? unusableHash);
  const usernameOk = sameText(input.username, deps.admin.username);
  if (!hash || !passwordOk || !usernameOk) {
    await deps.db.query("INSERT INTO login_attempts (client_key, attempted_at) VALUES ($1, $2)", [clientKey, now]);
    await deps.db.query("DELETE FROM login_attempts WHERE attempted_at < $1", [since]);
    throw new UnauthorizedError("Invalid username or password.");
  }
  await deps.db.query("DELETE FROM login_attempts WHERE client_key = $1", [clientKey]);
  const { token } = await createSession(deps);
  return { token };
}
