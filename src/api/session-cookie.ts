import { parseCookie, stringifySetCookie } from "cookie";
import { sessionMaxMs } from "../core/auth/sessions.ts";

/**
 * Over https the cookie gets the `__Host-` prefix (Secure, Path=/, no Domain: it can't be set or
 * read by another subdomain); plain http on localhost keeps a plain name so local use still works.
 */
function cookieName(request: Request): string {
  return isHttps(request) ? "__Host-nf_session" : "nf_session";
}

function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

export function readSessionToken(request: Request): string | undefined {
  return parseCookie(request.headers.get("cookie") ?? "")[cookieName(request)];
}

export function sessionCookie(request: Request, token: string): string {
  return stringifySetCookie({
    name: cookieName(request),
    value: token,
    httpOnly: true,
    sameSite: "strict",
    secure: isHttps(request),
    path: "/",
    maxAge: Math.floor(sessionMaxMs / 1000),
  });
}

export function clearedSessionCookie(request: Request): string {
  return stringifySetCookie({
    name: cookieName(request),
    value: "",
    httpOnly: true,
    sameSite: "strict",
    secure: isHttps(request),
    path: "/",
    maxAge: 0,
  });
}
