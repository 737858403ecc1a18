import { logIn } from "../../core/auth/login.ts";
import { deleteSession } from "../../core/auth/sessions.ts";
import { json } from "../http.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { clearedSessionCookie, pendingLoginCookie, readSessionToken, sessionCookie } from "../session-cookie.ts";
import type { authRoutes } from "./auth.routes.ts";

export const authHandlers: RouteHandlers<typeof authRoutes> = {
  login: async ({ request, body, deps, clientIp }) => {
    const outcome = await logIn(deps, body, clientIp);
    if ("pendingToken" in outcome) {
      // The password was right but a passkey is required: no session until the second step.
      return json({ authenticated: false, secondStep: "passkey" }, { headers: { "set-cookie": pendingLoginCookie(request, outcome.pendingToken) } });
    }
    return json({ authenticated: true }, { headers: { "set-cookie": sessionCookie(request, outcome.token) } });
  },
  logout: async ({ request, deps }) => {
    await deleteSession(deps, readSessionToken(request));
    return json({ authenticated: false }, { headers: { "set-cookie": clearedSessionCookie(request) } });
  },
  session: async ({ session }) => ({ authenticated: (await session()) !== null }),
};
