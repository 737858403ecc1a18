import { logIn } from "../../core/auth/login.ts";
import { changeOwnerPassword } from "../../core/auth/password-change.ts";
import { reauthenticate } from "../../core/auth/recent-sign-in.ts";
import { deleteSession } from "../../core/auth/sessions.ts";
import { json } from "../http.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { clearedSessionCookie, deviceCookie, pendingLoginCookie, readDeviceCookie, readSessionToken, sessionCookie } from "../session-cookie.ts";
import type { authRoutes } from "./auth.routes.ts";

export const authHandlers: RouteHandlers<typeof authRoutes> = {
  login: async ({ request, body, deps, clientIp }) => {
    const outcome = await logIn(deps, body, clientIp, readDeviceCookie(request));
    const headers = new Headers();
    const pending = "pendingToken" in outcome;
    // The password was right but a passkey is required: no session until the second step.
    headers.append("set-cookie", pending ? pendingLoginCookie(request, outcome.pendingToken) : sessionCookie(request, outcome.token));
    headers.append("set-cookie", deviceCookie(request, outcome.deviceCookie));
    return json(pending ? { authenticated: false, secondStep: "passkey" } : { authenticated: true }, { headers });
  },
  reauthenticate: async ({ request, body, deps, clientIp }) => {
    // The route needs a live session, so the cookie is there.
    const token = readSessionToken(request) ?? "";
    const signedInAt = await reauthenticate(deps, token, body, clientIp, readDeviceCookie(request));
    return { signedInAt: signedInAt.toISOString() };
  },
  logout: async ({ request, deps }) => {
    await deleteSession(deps, readSessionToken(request));
    return json({ authenticated: false }, { headers: { "set-cookie": clearedSessionCookie(request) } });
  },
  changePassword: async ({ request, body, deps, clientIp, session }) =>
    changeOwnerPassword(
      deps,
      // The route needs a live session, so the cookie is there.
      { session: await session(), sessionToken: readSessionToken(request) ?? "", clientIp, deviceCookie: readDeviceCookie(request) },
      body,
    ),
  session: async ({ session }) => ({ authenticated: (await session()) !== null }),
};
