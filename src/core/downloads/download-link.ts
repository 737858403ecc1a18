import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** How long a link handed out after the email step stays valid. */
export const downloadLinkLifetimeSeconds = 24 * 60 * 60;

// Without SESSION_SECRET (tests, a first local run) links are signed with a secret of this process:
// they still cannot be forged, they just stop working when the process restarts.
const processSecret = randomBytes(32).toString("base64url");

/** The secret links are signed with: SESSION_SECRET, or this process's own random one. */
export function downloadLinkSecret(env: { SESSION_SECRET?: string | undefined }): string {
  return env.SESSION_SECRET ?? processSecret;
}

function signature(secret: string, id: number, expires: number): string {
  return createHmac("sha256", secret).update(`${id}.${expires}`).digest("base64url");
}

/** What a download link carries: its expiry (unix seconds) and an HMAC-SHA256 of id and expiry (base64url). */
export interface SignedDownload {
  expires: string;
  signature: string;
}

export function signDownloadLink(secret: string, id: number, now: Date): SignedDownload {
  const expires = Math.floor(now.getTime() / 1000) + downloadLinkLifetimeSeconds;
  return { expires: String(expires), signature: signature(secret, id, expires) };
}

/** True when the link's signature is ours for this id and it has not expired (constant-time compare). */
export function verifyDownloadLink(secret: string, link: { id: number; expires: string | null; signature: string | null }, now: Date): boolean {
  if (!link.expires || !/^\d{1,12}$/.test(link.expires) || !link.signature) return false;
  const expires = Number(link.expires);
  if (expires <= Math.floor(now.getTime() / 1000)) return false;
  const expected = Buffer.from(signature(secret, link.id, expires));
  const given = Buffer.from(link.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
