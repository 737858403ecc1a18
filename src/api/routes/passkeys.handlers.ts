import type { AppDeps } from "../../app/app-deps.ts";
import type { Session } from "../../core/auth/sessions.ts";
import { securityState, setPasskeyRequired } from "../../core/auth/admin-security.ts";
import { logInWithPasskey, logInWithRecoveryCode } from "../../core/auth/passkey-login.ts";
import { deletePasskey, passkeyLoginOptions, passkeyRegistrationOptions, registerPasskey, renamePasskey } from "../../core/auth/passkeys.ts";
import { endPendingLogin } from "../../core/auth/pending-logins.ts";
import { requireRecentSignIn } from "../../core/auth/recent-sign-in.ts";
import { generateRecoveryCodes } from "../../core/auth/recovery-codes.ts";
import { json } from "../http.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { clearedPendingLoginCookie, deviceCookie, readDeviceCookie, readPendingLoginToken, sessionCookie } from "../session-cookie.ts";
import type { passkeysRoutes } from "./passkeys.routes.ts";

/** Logged in: the session and device cookies set, a pending password step's cookie cleared. */
function loggedIn(request: Request, login: { token: string; deviceCookie: string }): Response {
  const headers = new Headers();
  headers.append("set-cookie", sessionCookie(request, login.token));
  headers.append("set-cookie", clearedPendingLoginCookie(request));
  headers.append("set-cookie", deviceCookie(request, login.deviceCookie));
  return json({ authenticated: true }, { headers });
}

/** A change to how the owner signs in: 403 `recent_sign_in_required` unless they signed in within 5 minutes. */
async function recentSignIn({ deps, session }: { deps: AppDeps; session: () => Promise<Session | null> }): Promise<void> {
  requireRecentSignIn(deps, await session());
}

export const passkeysHandlers: RouteHandlers<typeof passkeysRoutes> = {
  loginOptions: ({ request, deps, clientIp }) => passkeyLoginOptions(deps, clientIp, readDeviceCookie(request)),
  login: async ({ request, body, deps }) => {
    const login = await logInWithPasskey(deps, body.response);
    await endPendingLogin(deps, readPendingLoginToken(request));
    return loggedIn(request, login);
  },
  recoveryCodeLogin: async ({ request, body, deps, clientIp }) => {
    const pendingToken = readPendingLoginToken(request);
    return loggedIn(request, await logInWithRecoveryCode(deps, { pendingToken, code: body.code }, clientIp, readDeviceCookie(request)));
  },
  security: ({ deps }) => securityState(deps),
  // Asked before the browser's ceremony too, so "Confirm it's you" comes before the passkey prompt.
  registrationOptions: async (context) => {
    await recentSignIn(context);
    return passkeyRegistrationOptions(context.deps);
  },
  register: async (context) => {
    await recentSignIn(context);
    return registerPasskey(context.deps, context.body);
  },
  rename: ({ deps, params, body }) => renamePasskey(deps, params.id, body.name),
  remove: async (context) => {
    await recentSignIn(context);
    return deletePasskey(context.deps, context.params.id);
  },
  requirement: async (context) => {
    // Turning it on only makes signing in harder: no fresh sign-in needed.
    if (!context.body.required) await recentSignIn(context);
    await setPasskeyRequired(context.deps, context.body.required);
    return { required: context.body.required };
  },
  recoveryCodes: async (context) => {
    await recentSignIn(context);
    return { codes: await generateRecoveryCodes(context.deps) };
  },
};
