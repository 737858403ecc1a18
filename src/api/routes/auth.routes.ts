import { loginSchema } from "../../core/auth/login.schema.ts";
import { logIn } from "../../core/auth/login.ts";
import { deleteSession } from "../../core/auth/sessions.ts";
import { json, readJson } from "../http.ts";
import type { Route } from "../route-table.ts";
import { clearedSessionCookie, readSessionToken, sessionCookie } from "../session-cookie.ts";

export const authRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/auth/login",
    handle: async ({ request, deps, clientIp }) => {
      const input = await readJson(request, loginSchema);
      const { token } = await logIn(deps, input, clientIp);
      return json({ authenticated: true }, { headers: { "set-cookie": sessionCookie(request, token) } });
    },
  },
  {
    method: "POST",
    path: "/api/auth/logout",
    handle: async ({ request, deps }) => {
      await deleteSession(deps, readSessionToken(request));
      return json({ authenticated: false }, { headers: { "set-cookie": clearedSessionCookie(request) } });
    },
  },
  {
    method: "GET",
    path: "/api/auth/session",
    handle: async ({ session }) => json({ authenticated: (await session()) !== null }),
  },
];
