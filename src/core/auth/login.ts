import { createHash, timingSafeEqual } from "node:crypto";
import type { SqlExecutor } from "../db/sql-executor.ts";
import type { Clock } from "../shared/clock.ts";
import type { AdminCredentials } from "./admin-credentials.ts";
import { clientKey } from "../client-key.ts";
import { UnauthorizedError } from "../errors.ts";
import type { LoginInput } from "./login.schema.ts";
import { verifyPassword } from "./password.ts";
import { issueDeviceCookie, trustedDevice, type DeviceCookieDeps } from "./device-cookies.ts";
import { deleteExpiredLoginAttempts, releaseLoginAttempt, reserveLoginAttempt } from "./login-throttle.ts";
import { passkeyRequired } from "./admin-security.ts";
import { startPendingLogin } from "./pending-logins.ts";
import { createSession } from "./sessions.ts";
import { ownerPasswordHash } from "./owner-password.ts";

// A fixed valid hash to verify against when no password is configured, so every answer costs the same.
const unusableHash = "scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * A login's outcome: a session, or (with "Require a passkey" on) a password step waiting for its
 * second step; either way a new device cookie for the browser (device-cookies.ts).
 */
export type LoginOutcome = ({ token: string } | { pendingToken: string }) & { deviceCookie: string };

/** What a password login needs. */
export interface LoginDeps extends DeviceCookieDeps {
  db: SqlExecutor;
  admin: AdminCredentials;
  now: Clock["now"];
}
type Deps = LoginDeps;

/**
 * Checks the owner's password under the login throttle (see `logIn`); throws 401 when the username
 * or the password is wrong, 429 when out of tries.
 */
export async function checkPassword(deps: Deps, input: LoginInput, clientIp: string, deviceCookie?: string): Promise<void> {
  const device = trustedDevice(deps, deviceCookie, input.username);
  const reservation = await reserveLoginAttempt(deps, clientKey(clientIp), input.username, device);
  try {
    const hash = await ownerPasswordHash(deps);
    const passwordOk = await verifyPassword(input.password, hash ?? unusableHash);
    const usernameOk = sameText(input.username, deps.admin.username);
    if (!hash || !passwordOk || !usernameOk) throw new UnauthorizedError("Invalid username or password.");
    await releaseLoginAttempt(deps, reservation);
  } finally {
    await deleteExpiredLoginAttempts(deps);
  }
}

/**
 * Checks the admin's credentials and starts a session — or, when a passkey is required, records the
 * right password as a pending login whose token the second step must bring (pending-logins.ts). A wrong username and a wrong password get
 * the same answer after the same work (the password hash is always verified). The attempt is
 * reserved before the password is checked — against the browser's device cookie when it brings a
 * valid one for this username, else against the client address and the account (429 when out of
 * tries, see login-throttle.ts) — and given back when the login succeeds.
 */
export async function logIn(deps: Deps, input: LoginInput, clientIp: string, deviceCookie?: string): Promise<LoginOutcome> {
  await checkPassword(deps, input, clientIp, deviceCookie);
  const issued = issueDeviceCookie(deps, deps.admin.username);
  if (await passkeyRequired(deps)) return { pendingToken: await startPendingLogin(deps), deviceCookie: issued };
  const { token } = await createSession(deps);
  return { token, deviceCookie: issued };
}
