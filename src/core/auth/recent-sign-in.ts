import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { Clock } from "../shared/clock.ts";
import { AppError, UnauthorizedError, ValidationError } from "../errors.ts";
import { passkeyRequired } from "./admin-security.ts";
import { recentSignInRequiredCode } from "./login.schema.ts";
import { checkPassword, type LoginDeps } from "./login.ts";
import { verifyPasskeyLogin, type PasskeyDeps } from "./passkeys.ts";
import { markSessionSignedIn, type Session } from "./sessions.ts";

/**
 * "Sudo mode": a change to how the owner signs in (adding or removing a passkey, turning "Require a
 * passkey" off, new recovery codes) needs a sign-in from the last 5 minutes, so a stolen session
 * cannot be turned into a lasting takeover.
 */
export const recentSignInMs = 5 * 60 * 1000;

export const signInRequiredMessage = "Please confirm it's you: sign in again to change your security settings.";

export class RecentSignInRequiredError extends AppError {
  constructor() {
    super(signInRequiredMessage, 403, { code: recentSignInRequiredCode });
  }
}

/** Throws 403 (`code: recent_sign_in_required`, the dashboard then asks "Confirm it's you" and retries) unless the session's owner signed in within 5 minutes. */
export function requireRecentSignIn(deps: { now: Clock["now"] }, session: Session | null): void {
  if (!session || deps.now().getTime() - session.signedInAt.getTime() >= recentSignInMs) throw new RecentSignInRequiredError();
}

export type Reauthentication = { password: string } | { response: AuthenticationResponseJSON };

/**
 * The owner proves who they are again inside a live session: the password (throttled like a login,
 * login-throttle.ts) or a passkey (the stronger factor; the only one accepted while "Require a
 * passkey" is on). A wrong answer is 403 — not 401, which would end the session in the dashboard.
 */
export async function reauthenticate(
  deps: PasskeyDeps & LoginDeps,
  sessionToken: string,
  proof: Reauthentication,
  clientIp: string,
  deviceCookie?: string,
): Promise<Date> {
  try {
    if ("response" in proof) {
      await verifyPasskeyLogin(deps, proof.response);
    } else {
      if (await passkeyRequired(deps)) throw new ValidationError("A passkey is required to sign in: confirm with your passkey.");
      await checkPassword(deps, { username: deps.admin.username, password: proof.password }, clientIp, deviceCookie);
    }
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      throw new AppError("password" in proof ? "Wrong password. Please try again." : error.message, 403, { code: "sign_in_failed" });
    }
    throw error;
  }
  return markSessionSignedIn(deps, sessionToken);
}
