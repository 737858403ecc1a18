import { AppError, UnauthorizedError } from "../errors.ts";
import type { Clock } from "../shared/clock.ts";
import { passkeyRequired } from "./admin-security.ts";
import type { PasswordChange, PasswordState } from "./login.schema.ts";
import { checkPassword, type LoginDeps } from "./login.ts";
import { passwordState, type OwnerPasswordDeps } from "./owner-password.ts";
import { hashPassword } from "./password.ts";
import { requireRecentSignIn } from "./recent-sign-in.ts";
import { endOtherSessions, type Session } from "./sessions.ts";

/**
 * "Change password" in the dashboard. Proof first: the current password (throttled like a login; not
 * enough while "Require a passkey" is on), or a sign-in in the last 5 minutes (403
 * `recent_sign_in_required` otherwise, and the dashboard asks "Confirm it's you"). Every other
 * session ends; this one goes on.
 */
export async function changeOwnerPassword(
  deps: LoginDeps & OwnerPasswordDeps & { now: Clock["now"]; setup: { passwordGenerated: boolean } },
  request: { session: Session | null; sessionToken: string; clientIp: string; deviceCookie?: string | undefined },
  change: PasswordChange,
): Promise<PasswordState> {
  if (change.currentPassword && !(await passkeyRequired(deps))) {
    try {
      await checkPassword(deps, { username: deps.admin.username, password: change.currentPassword }, request.clientIp, request.deviceCookie);
    } catch (error) {
      // 403, not 401, which would end the session in the dashboard.
      if (error instanceof UnauthorizedError)
        throw new AppError("Your current password is wrong. Please try again.", 403, { code: "sign_in_failed" });
      throw error;
    }
  } else {
    requireRecentSignIn(deps, request.session);
  }
  const hash = await hashPassword(change.newPassword);
  await deps.db.query("UPDATE admin_security SET password_hash = $1, password_environment = $2, password_changed_at = $3 WHERE id = 1", [
    hash,
    await deps.admin.fingerprint(),
    deps.now(),
  ]);
  await endOtherSessions(deps, request.sessionToken);
  return passwordState(deps, deps.setup.passwordGenerated);
}
