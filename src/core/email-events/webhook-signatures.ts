import { createHmac, timingSafeEqual } from "node:crypto";
import { EventWebhook } from "@sendgrid/eventwebhook";
import { Webhook } from "svix";

/**
 * Each provider's documented check of a webhook, before anything in it is believed. A check answers
 * true or false and never throws: a caller answers 401 for false. Signed timestamps must be within
 * `maxAgeMs` of the app's clock either way (a replayed request is refused; one repeated within the
 * window is caught by the provider's event id, email-events.service.ts).
 */
export const maxAgeMs = 5 * 60 * 1000;

const equalText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

const fresh = (seconds: number, now: Date) => Number.isFinite(seconds) && Math.abs(now.getTime() - seconds * 1000) <= maxAgeMs;

/**
 * Postmark: HTTP Basic credentials the owner put in the webhook's URL (`https://user:pass@…`),
 * compared with `POSTMARK_WEBHOOK_AUTH` (`user:password`). Postmark signs nothing else.
 */
export function verifyPostmark(authorization: string | null, expected: string): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? "");
  if (!match?.[1]) return false;
  return equalText(Buffer.from(match[1], "base64").toString("utf8"), expected);
}

/** Resend signs with Svix: `svix-id`, `svix-timestamp`, `svix-signature` over the raw body (svix's own check, 5 minutes). */
export function verifyResend(body: string, headers: Headers, secret: string, now: Date): boolean {
  const id = headers.get("svix-id");
  const timestamp = headers.get("svix-timestamp");
  const signature = headers.get("svix-signature");
  if (!id || !timestamp || !signature || !fresh(Number(timestamp), now)) return false;
  try {
    new Webhook(secret).verify(body, { "svix-id": id, "svix-timestamp": timestamp, "svix-signature": signature });
    return true;
  } catch {
    // A bad signature, or a secret that is not `whsec_…` base64: nothing it signed can be believed.
    return false;
  }
}

/** Mailgun: `signature.signature` is the hex HMAC-SHA256 of `timestamp + token` with the webhook signing key. */
export function verifyMailgun(signature: { timestamp?: unknown; token?: unknown; signature?: unknown } | undefined, key: string, now: Date): boolean {
  if (!signature) return false;
  const { timestamp, token, signature: given } = signature;
  if (typeof timestamp !== "string" && typeof timestamp !== "number") return false;
  if (typeof token !== "string" || typeof given !== "string") return false;
  if (!fresh(Number(timestamp), now)) return false;
  const expected = createHmac("sha256", key)
    .update(`${String(timestamp)}${token}`)
    .digest("hex");
  return equalText(expected, given.toLowerCase());
}

/**
 * SendGrid: an ECDSA (P-256, SHA-256) signature, base64 in `X-Twilio-Email-Event-Webhook-Signature`,
 * over the timestamp header followed by the raw body; the public key is the one Mail Settings shows.
 */
export function verifySendgrid(body: string, headers: Headers, publicKey: string, now: Date): boolean {
  const signature = headers.get("x-twilio-email-event-webhook-signature");
  const timestamp = headers.get("x-twilio-email-event-webhook-timestamp");
  if (!signature || !timestamp || !fresh(Number(timestamp), now)) return false;
  try {
    const webhook = new EventWebhook();
    return webhook.verifySignature(webhook.convertPublicKeyToECDSA(publicKey), body, signature, timestamp);
  } catch {
    return false;
  }
}
