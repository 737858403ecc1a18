import { securityState, setPasskeyRequired } from "../../core/auth/admin-security.ts";
import { logInWithPasskey, logInWithRecoveryCode } from "../../core/auth/passkey-login.ts";
import { deletePasskey, passkeyLoginOptions, passkeyRegistrationOptions, registerPasskey, renamePasskey } from "../../core/auth/passkeys.ts";
import { endPendingLogin } from "../../core/auth/pending-logins.ts";
import { generateRecoveryCodes } from "../../core/auth/recovery-codes.ts";
import { json } from "../http.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { clearedPendingLoginCookie, readPendingLoginToken, sessionCookie } from "../session-cookie.ts";
import type { passkeysRoutes } from "./passkeys.routes.ts";

/** Logged in: the session cookie set, a pending password step's cookie cleared. */
function loggedIn(request: Request, token: string): Response {
  const headers = new Headers();
  headers.append("set-cookie", sessionCookie(request, token));
  headers.append("set-cookie", clearedPendingLoginCookie(request));
  return json({ authenticated: true }, { headers });
}

export const passkeysHandlers: RouteHandlers<typeof passkeysRoutes> = {
  loginOptions: ({ deps, clientIp }) => passkeyLoginOptions(deps, clientIp),
  login: async ({ request, body, deps, clientIp }) => {
    const { token } = await logInWithPasskey(deps, body.response, clientIp);
    await endPendingLogin(deps, readPendingLoginToken(request));
    return loggedIn(request, token);
  },
  recoveryCodeLogin: async ({ request, body, deps, clientIp }) => {
    const { token } = await logInWithRecoveryCode(deps, { pendingToken: readPendingLoginToken(request), code: body.code }, clientIp);
    return loggedIn(request, token);
  },
  security: ({ deps }) => securityState(deps),
  registrationOptions: ({ deps }) => passkeyRegistrationOptions(deps),
  register: ({ deps, body }) => registerPasskey(deps, body),
  rename: ({ deps, params, body }) => renamePasskey(deps, params.id, body.name),
  remove: ({ deps, params }) => deletePasskey(deps, params.id),
  requirement: async ({ deps, body }) => {
    await setPasskeyRequired(deps, body.required);
    return { required: body.required };
  },
  recoveryCodes: async ({ deps }) => ({ codes: await generateRecoveryCodes(deps) }),
};
