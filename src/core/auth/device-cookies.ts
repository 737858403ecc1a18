import { randomBytes } from "node:crypto";
import type { Clock } from "../shared/clock.ts";
import type { Signer } from "../shared/signer.ts";

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
 * signed in proves it later by a signed cookie, and its attempts are then counted against that
 * cookie alone, never against the account lock that strangers can trip (login-throttle.ts).
 * Value: `{nonce}.{expires, unix seconds}.{HMAC-SHA256 of purpose, username, nonce and expiry}`.
 * It grants no access by itself: only a budget of password attempts of its own.
 */
export const deviceCookieLifetimeMs = 365 * 24 * 60 * 60 * 1000;

/** What device cookies need: the app's signer (a key of their own: purpose `device-cookie`) and the clock. */
export interface DeviceCookieDeps {
  signer: Signer;
  now: Clock["now"];
}

const signed = (username: string, nonce: string, expires: string) => `device.${username.toLowerCase()}.${nonce}.${expires}`;

/** A new device cookie's value for a browser that has just signed in as `username`. */
export function issueDeviceCookie(deps: DeviceCookieDeps, username: string): string {
  const nonce = randomBytes(16).toString("base64url");
  const expires = String(Math.floor((deps.now().getTime() + deviceCookieLifetimeMs) / 1000));
  return `${nonce}.${expires}.${deps.signer.sign("device-cookie", signed(username, nonce, expires))}`;
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
  return deps.signer.verify("device-cookie", signed(username, nonce, expires), given) ? nonce : null;
}
