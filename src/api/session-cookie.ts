import { parseCookie, stringifySetCookie } from "cookie";
import { deviceCookieLifetimeMs } from "../core/auth/device-cookies.ts";
import { pendingLoginTtlMs } from "../core/auth/pending-logins.ts";
import { sessionMaxMs } from "../core/auth/sessions.ts";
import { readerSessionMs } from "../core/readers/reader-sessions.ts";

/**
 * Over https the cookies get the `__Host-` prefix (Secure, Path=/, no Domain: they can't be set or
 * read by another subdomain); plain http on localhost keeps plain names so local use still works.
 */
function cookieName(request: Request, name: string): string {
  return isHttps(request) ? `__Host-${name}` : name;
}

function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

function setCookie(request: Request, name: string, value: string, maxAgeMs: number, sameSite: "strict" | "lax" = "strict"): string {
  return stringifySetCookie({
    name: cookieName(request, name),
    value,
    httpOnly: true,
    sameSite,
    secure: isHttps(request),
    path: "/",
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

const session = "nf_session";
/** A right password waiting for its passkey or recovery code (pending-logins.ts). */
const pendingLogin = "nf_login_step";
/** A browser that signed in before (device-cookies.ts): its login attempts have a budget of their own. */
const device = "nf_device";

/** The session cookie's name as the browser of `request` gets it (`__Host-nf_session` over https). */
export function sessionCookieName(request: Request): string {
  return cookieName(request, session);
}

export function readSessionToken(request: Request): string | undefined {
  return parseCookie(request.headers.get("cookie") ?? "")[cookieName(request, session)];
}

export function sessionCookie(request: Request, token: string): string {
  return setCookie(request, session, token, sessionMaxMs);
}

export function clearedSessionCookie(request: Request): string {
  return setCookie(request, session, "", 0);
}

export function readPendingLoginToken(request: Request): string | undefined {
  return parseCookie(request.headers.get("cookie") ?? "")[cookieName(request, pendingLogin)];
}

export function pendingLoginCookie(request: Request, token: string): string {
  return setCookie(request, pendingLogin, token, pendingLoginTtlMs);
}

export function clearedPendingLoginCookie(request: Request): string {
  return setCookie(request, pendingLogin, "", 0);
}

export function readDeviceCookie(request: Request): string | undefined {
  return parseCookie(request.headers.get("cookie") ?? "")[cookieName(request, device)];
}

/** Kept for a year, and left in place at logout: it is what lets the owner's browser in when strangers are locked out. */
export function deviceCookie(request: Request, value: string): string {
  return setCookie(request, device, value, deviceCookieLifetimeMs);
}

/**
 * A reader's session (issue 44, decision 0073): a cookie of its own name, never read as the owner's.
 * Lax, not Strict: a reader who follows a link to the site from their mail arrives signed in.
 */
const reader = "nf_reader";

export function readReaderToken(request: Request): string | undefined {
  return parseCookie(request.headers.get("cookie") ?? "")[cookieName(request, reader)];
}

export function readerCookie(request: Request, token: string): string {
  return setCookie(request, reader, token, readerSessionMs, "lax");
}

export function clearedReaderCookie(request: Request): string {
  return setCookie(request, reader, "", 0, "lax");
}
