import { createHash, timingSafeEqual } from "node:crypto";
import type { SqlExecutor } from "../db/sql-executor.ts";
import type { Clock } from "../shared/clock.ts";
import type { AdminCredentials } from "./admin-credentials.ts";
import { clientKey } from "../client-key.ts";
import { UnauthorizedError } from "../errors.ts";
import type { LoginInput } from "./login.schema.ts";
import { verifyPassword } from "./password.ts";
import { deleteExpiredLoginAttempts, releaseLoginAttempt, reserveLoginAttempt } from "./login-throttle.ts";
import { passkeyRequired } from "./admin-security.ts";
import { startPendingLogin } from "./pending-logins.ts";
import { createSession } from "./sessions.ts";

// A fixed valid hash to verify against when no password is configured, so every answer costs the same.
const unusableHash = "scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** A login's outcome: a session, or (with "Require a passkey" on) a password step waiting for its second step. */
export type LoginOutcome = { token: string } | { pendingToken: string };

/**
 * Checks the admin's credentials and starts a session — or, when a passkey is required, records the
 * right password as a pending login whose token the second step must bring (pending-logins.ts). A wrong username and a wrong password get
 * the same answer after the same work (the password hash is always verified). The attempt is
 * reserved against the client address and the account before the password is checked (429 when
 * either is out of tries, see login-throttle.ts) and given back when the login succeeds.
 */
/** What a password login needs. */
export interface LoginDeps {
  db: SqlExecutor;
  admin: AdminCredentials;
  now: Clock["now"];
}

export async function logIn(deps: LoginDeps, input: LoginInput, clientIp: string): Promise<LoginOutcome> {
  const reservation = await reserveLoginAttempt(deps, clientKey(clientIp), input.username);
  try {
    const hash = await deps.admin.passwordHash();
    const passwordOk = await verifyPassword(input.password, hash ?? unusableHash);
    const usernameOk = sameText(input.username, deps.admin.username);
    if (!hash || !passwordOk || !usernameOk) throw new UnauthorizedError("Invalid username or password.");
    await releaseLoginAttempt(deps, reservation);
    if (await passkeyRequired(deps)) return { pendingToken: await startPendingLogin(deps) };
    const { token } = await createSession(deps);
    return { token };
  } finally {
    await deleteExpiredLoginAttempts(deps);
  }
}
