import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { clientKey } from "../client-key.ts";
import { UnauthorizedError } from "../errors.ts";
import { issueDeviceCookie, trustedDevice } from "./device-cookies.ts";
import { deleteExpiredLoginAttempts, releaseLoginAttempt, reserveLoginAttempt } from "./login-throttle.ts";
import { verifyPasskeyLogin, type PasskeyDeps } from "./passkeys.ts";
import { endPendingLogin, pendingLoginIsLive } from "./pending-logins.ts";
import { useRecoveryCode } from "./recovery-codes.ts";
import { createSession } from "./sessions.ts";

type Deps = PasskeyDeps;

/** A login by a second factor: a session, and a new device cookie for the browser (device-cookies.ts). */
export interface FactorLogin {
  token: string;
  deviceCookie: string;
}

async function started(deps: Deps): Promise<FactorLogin> {
  const { token } = await createSession(deps);
  return { token, deviceCookie: issueDeviceCookie(deps, deps.admin.username) };
}

/**
 * Signs in with a passkey alone (or completes a password step with one: a verified passkey is the
 * stronger factor, so it needs nothing else). Not under the login throttle: a passkey's signature
 * cannot be guessed, so failed passwords must never hold it up, and its failures lock nothing.
 * What bounds the attempts is the options call's limit (passkeys.ts): each answer uses up one
 * single-use challenge.
 */
export async function logInWithPasskey(deps: Deps, response: AuthenticationResponseJSON): Promise<FactorLogin> {
  await verifyPasskeyLogin(deps, response);
  return started(deps);
}

/**
 * The second step of a password login with a recovery code in place of the passkey (a lost
 * device): needs the pending login of a right password, and uses the code up. Throttled like a
 * password (login-throttle.ts): a code can be guessed.
 */
export async function logInWithRecoveryCode(
  deps: Deps,
  input: { pendingToken: string | undefined; code: string },
  clientIp: string,
  deviceCookie?: string,
): Promise<FactorLogin> {
  const device = trustedDevice(deps, deviceCookie, deps.admin.username);
  const reservation = await reserveLoginAttempt(deps, clientKey(clientIp), deps.admin.username, device);
  try {
    if (!(await pendingLoginIsLive(deps, input.pendingToken))) {
      throw new UnauthorizedError("Your login has expired. Please enter your password again.");
    }
    if (!(await useRecoveryCode(deps, input.code))) throw new UnauthorizedError("Invalid recovery code.");
    await endPendingLogin(deps, input.pendingToken);
    await releaseLoginAttempt(deps, reservation);
    return await started(deps);
  } finally {
    await deleteExpiredLoginAttempts(deps);
  }
}
