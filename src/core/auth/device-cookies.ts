import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { AppDeps } from "../app-deps.ts";
import { downloadLinkSecret } from "../downloads/download-link.ts";

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
 * signed in proves it later by a signed cookie, and its attempts are then counted against that
 * cookie alone, never against the account lock that strangers can trip (login-throttle.ts).
 * Value: `{nonce}.{expires, unix seconds}.{HMAC-SHA256 of purpose, username, nonce and expiry}`.
 * It grants no access by itself: only a budget of password attempts of its own.
 */
export const deviceCookieLifetimeMs = 365 * 24 * 60 * 60 * 1000;

/** What signing needs: the site's signing secret (SESSION_SECRET, or the process's own). */
export type DeviceCookieDeps = Partial<Pick<AppDeps, "env">> & Pick<AppDeps, "now">;

/**
 * The one place device cookies are signed (the project's signers are to become one; keep this the
 * only call). A key of its own, derived from the secret, so these never match another signature.
 */
function signature(deps: DeviceCookieDeps, message: string): string {
  const key = createHmac("sha256", downloadLinkSecret(deps.env ?? {}))
    .update("no-filter device cookies v1")
    .digest();
  return createHmac("sha256", key).update(message).digest("base64url");
}

const signed = (username: string, nonce: string, expires: string) => `device.${username.toLowerCase()}.${nonce}.${expires}`;

/** A new device cookie's value for a browser that has just signed in as `username`. */
export function issueDeviceCookie(deps: DeviceCookieDeps, username: string): string {
  const nonce = randomBytes(16).toString("base64url");
  const expires = String(Math.floor((deps.now().getTime() + deviceCookieLifetimeMs) / 1000));
  return `${nonce}.${expires}.${signature(deps, signed(username, nonce, expires))}`;
}

/**
 * The nonce of a valid, unexpired device cookie issued for `username` (case-insensitive, like the
 * login), or null: what the device's attempts are counted under.
 */
export function trustedDevice(deps: DeviceCookieDeps, value: string | undefined, username: string): string | null {
  const parts = value?.split(".") ?? [];
  if (parts.length !== 3) return null;
  const [nonce = "", expires = "", given = ""] = parts;
  if (!/^[A-Za-z0-9_-]{22}$/.test(nonce) || !/^\d{1,12}$/.test(expires)) return null;
  if (Number(expires) * 1000 <= deps.now().getTime()) return null;
  const expected = Buffer.from(signature(deps, signed(username, nonce, expires)));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? nonce : null;
}
