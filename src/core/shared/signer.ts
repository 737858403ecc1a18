import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * What a signature is for. Each purpose signs with a key of its own, so a signature made for one
 * can never pass as another's.
 */
export type SigningPurpose =
  | "download-link"
  | "subscription-token"
  | "background-run"
  | "device-cookie"
  | "message-id"
  | "preview-link"
  | "backup-link"
  | "newsletter-click"
  | "reader-sign-in"
  | "comment-notices"
  | "billing-portal";

/** Signs and checks short messages (HMAC-SHA256, base64url) for one purpose at a time. */
export interface Signer {
  sign(purpose: SigningPurpose, message: string): string;
  /** True when `signature` was made for this purpose and message by the current or a previous secret (constant-time compare). */
  verify(purpose: SigningPurpose, message: string, signature: string): boolean;
}

/**
 * Each purpose's key, from a secret. The first three are the keys these signatures had before the
 * key ring existed (the raw secret, and the subscription tokens' derived key), kept so every link
 * already sent still verifies; a new purpose derives its key as `HMAC(secret, "no-filter <purpose> v1")` (as device cookies do).
 */
const purposeKeys: Record<SigningPurpose, (secret: string) => string | Buffer> = {
  "download-link": (secret) => secret,
  "background-run": (secret) => secret,
  "subscription-token": (secret) => createHmac("sha256", secret).update("no-filter subscription tokens v1").digest(),
  "device-cookie": (secret) => createHmac("sha256", secret).update("no-filter device cookies v1").digest(),
  "message-id": (secret) => createHmac("sha256", secret).update("no-filter message-id v1").digest(),
  "preview-link": (secret) => createHmac("sha256", secret).update("no-filter preview-link v1").digest(),
  "backup-link": (secret) => createHmac("sha256", secret).update("no-filter backup-link v1").digest(),
  "newsletter-click": (secret) => createHmac("sha256", secret).update("no-filter newsletter-click v1").digest(),
  "reader-sign-in": (secret) => createHmac("sha256", secret).update("no-filter reader-sign-in v1").digest(),
  "comment-notices": (secret) => createHmac("sha256", secret).update("no-filter comment-notices v1").digest(),
  "billing-portal": (secret) => createHmac("sha256", secret).update("no-filter billing-portal v1").digest(),
};

function hmac(key: string | Buffer, message: string): string {
  return createHmac("sha256", key).update(message).digest("base64url");
}

/**
 * A key ring over `secrets`: signs with the first, verifies with any of them, so rotating the
 * secret (the new one first, the old ones after it) keeps what the old ones signed valid.
 */
export function keyRing(secrets: readonly string[]): Signer {
  const [current] = secrets;
  if (!current) throw new Error("a key ring needs at least one secret");
  const keys = (purpose: SigningPurpose) => secrets.map((secret) => purposeKeys[purpose](secret));
  return {
    sign: (purpose, message) => hmac(purposeKeys[purpose](current), message),
    verify(purpose, message, signature) {
      const given = Buffer.from(signature);
      let valid = false;
      for (const key of keys(purpose)) {
        const expected = Buffer.from(hmac(key, message));
        // Every key is tried (no early return), so timing does not say which secret matched.
        if (given.length === expected.length && timingSafeEqual(given, expected)) valid = true;
      }
      return valid;
    },
  };
}
