import { logIn } from "../../core/auth/login.ts";
import { deleteSession } from "../../core/auth/sessions.ts";
import { json } from "../http.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { clearedSessionCookie, readSessionToken, sessionCookie } from "../session-cookie.ts";
import type { authRoutes } from "./auth.routes.ts";

export const authHandlers: RouteHandlers<typeof authRoutes> = {
  login: async ({ request, body, deps, clientIp }) => {
    const { token } = await logIn(deps, body, clientIp);
    return json({ authenticated: true }, { headers: { "set-cookie": sessionCookie(request, token) } });
  },
  logout: async ({ request, deps }) => {
    await deleteSession(deps, readSessionToken(request));
    return json({ authenticated: false }, { headers: { "set-cookie": clearedSessionCookie(request) } });
  },
  session: async ({ session }) => ({ authenticated: (await session()) !== null }),
};
