import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { clientKey } from "../client-key.ts";
import { UnauthorizedError } from "../errors.ts";
import { deleteExpiredLoginAttempts, releaseLoginAttempt, reserveLoginAttempt } from "./login-throttle.ts";
import { verifyPasskeyLogin, type PasskeyDeps } from "./passkeys.ts";
import { endPendingLogin, pendingLoginIsLive } from "./pending-logins.ts";
import { useRecoveryCode } from "./recovery-codes.ts";
import { createSession } from "./sessions.ts";

type Deps = PasskeyDeps;

/**
 * Runs one login attempt under the login throttle (login-throttle.ts), counted against the client
 * address and the owner's account like a password guess, and starts a session when `check` passes.
 */
async function throttled(deps: Deps, clientIp: string, check: () => Promise<void>): Promise<{ token: string }> {
  const reservation = await reserveLoginAttempt(deps, clientKey(clientIp), deps.admin.username);
  try {
    await check();
    await releaseLoginAttempt(deps, reservation);
    const { token } = await createSession(deps);
    return { token };
  } finally {
    await deleteExpiredLoginAttempts(deps);
  }
}

/**
 * Signs in with a passkey alone (or completes a password step with one: a verified passkey is the
 * stronger factor, so it needs nothing else). Throttled like a password login.
 */
export function logInWithPasskey(deps: Deps, response: AuthenticationResponseJSON, clientIp: string): Promise<{ token: string }> {
  return throttled(deps, clientIp, () => verifyPasskeyLogin(deps, response));
}

/**
 * The second step of a password login with a recovery code in place of the passkey (a lost
 * device): needs the pending login of a right password, and uses the code up.
 */
export function logInWithRecoveryCode(
  deps: Deps,
  input: { pendingToken: string | undefined; code: string },
  clientIp: string,
): Promise<{ token: string }> {
  return throttled(deps, clientIp, async () => {
    if (!(await pendingLoginIsLive(deps, input.pendingToken))) {
      throw new UnauthorizedError("Your login has expired. Please enter your password again.");
    }
    if (!(await useRecoveryCode(deps, input.code))) throw new UnauthorizedError("Invalid recovery code.");
    await endPendingLogin(deps, input.pendingToken);
  });
}
