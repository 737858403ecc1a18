import type { Signer } from "../shared/signer.ts";

/** How long a confirmation link works. */
export const confirmTokenLifetimeSeconds = 7 * 24 * 60 * 60;

/**
 * What the links in subscriber email carry, HMAC-SHA256-signed (base64url):
 * - confirm: `c.<subscriberId>.<consentId>.<expires>.<signature>` — one consent record, 7 days;
 * - unsubscribe: `u.<subscriberId>.<signature>` — no expiry (an old email's link must keep working),
 *   useless once the subscriber is erased;
 * - preferences: `p.<subscriberId>.<signature>` — the "Choose what you get" page, no expiry either;
 * - poll: `v.<subscriberId>.<pollId>.<answerIndex>.<signature>` — one answer's link of a poll in a
 *   newsletter (issue 42 point 6), no expiry: it opens the answer page with that answer selected.
 * The purpose is signed too, so one kind can never be used as the other.
 */
export type SubscriptionToken =
  | { purpose: "confirm"; subscriberId: number; consentId: number; expires: number }
  | { purpose: "unsubscribe"; subscriberId: number }
  | { purpose: "preferences"; subscriberId: number }
  | { purpose: "poll"; subscriberId: number; pollId: number; answerIndex: number };

export type TokenCheck<Purpose extends SubscriptionToken["purpose"]> =
  { ok: true; token: Extract<SubscriptionToken, { purpose: Purpose }> } | { ok: false; reason: "invalid" | "expired" };

const idPattern = /^[1-9]\d{0,9}$/;

export function signConfirmToken(signer: Signer, subscriberId: number, consentId: number, now: Date): string {
  const expires = Math.floor(now.getTime() / 1000) + confirmTokenLifetimeSeconds;
  const body = `c.${String(subscriberId)}.${String(consentId)}.${String(expires)}`;
  return `${body}.${signer.sign("subscription-token", `confirm.${body}`)}`;
}

export function signUnsubscribeToken(signer: Signer, subscriberId: number): string {
  const body = `u.${String(subscriberId)}`;
  return `${body}.${signer.sign("subscription-token", `unsubscribe.${body}`)}`;
}

/** A confirm token that is ours and unexpired; the signature is checked first (constant time). */
export function verifyConfirmToken(signer: Signer, raw: string | undefined, now: Date): TokenCheck<"confirm"> {
  const parts = (raw ?? "").split(".");
  if (parts.length !== 5) return { ok: false, reason: "invalid" };
  const [kind, subscriberId = "", consentId = "", expires = "", signature = ""] = parts;
  if (kind !== "c" || !idPattern.test(subscriberId) || !idPattern.test(consentId) || !/^\d{1,12}$/.test(expires)) {
    return { ok: false, reason: "invalid" };
  }
  const body = `c.${subscriberId}.${consentId}.${expires}`;
  if (!signer.verify("subscription-token", `confirm.${body}`, signature)) return { ok: false, reason: "invalid" };
  if (Number(expires) <= Math.floor(now.getTime() / 1000)) return { ok: false, reason: "expired" };
  return { ok: true, token: { purpose: "confirm", subscriberId: Number(subscriberId), consentId: Number(consentId), expires: Number(expires) } };
}

/** An unsubscribe token that is ours (constant-time compare). */
export function verifyUnsubscribeToken(signer: Signer, raw: string | undefined): TokenCheck<"unsubscribe"> {
  const parts = (raw ?? "").split(".");
  if (parts.length !== 3) return { ok: false, reason: "invalid" };
  const [kind, subscriberId = "", signature = ""] = parts;
  if (kind !== "u" || !idPattern.test(subscriberId)) return { ok: false, reason: "invalid" };
  if (!signer.verify("subscription-token", `unsubscribe.u.${subscriberId}`, signature)) return { ok: false, reason: "invalid" };
  return { ok: true, token: { purpose: "unsubscribe", subscriberId: Number(subscriberId) } };
}

export function signPreferencesToken(signer: Signer, subscriberId: number): string {
  const body = `p.${String(subscriberId)}`;
  return `${body}.${signer.sign("subscription-token", `preferences.${body}`)}`;
}

/** A preferences token that is ours (constant-time compare); an unsubscribe token never passes as one. */
export function verifyPreferencesToken(signer: Signer, raw: string | undefined): TokenCheck<"preferences"> {
  const parts = (raw ?? "").split(".");
  if (parts.length !== 3) return { ok: false, reason: "invalid" };
  const [kind, subscriberId = "", signature = ""] = parts;
  if (kind !== "p" || !idPattern.test(subscriberId)) return { ok: false, reason: "invalid" };
  if (!signer.verify("subscription-token", `preferences.p.${subscriberId}`, signature)) return { ok: false, reason: "invalid" };
  return { ok: true, token: { purpose: "preferences", subscriberId: Number(subscriberId) } };
}

/** The link of one poll answer for one recipient (`v.<subscriberId>.<pollId>.<answerIndex>.<signature>`). */
export function signPollToken(signer: Signer, subscriberId: number, pollId: number, answerIndex: number): string {
  const body = `v.${String(subscriberId)}.${String(pollId)}.${String(answerIndex)}`;
  return `${body}.${signer.sign("subscription-token", `poll.${body}`)}`;
}

/** A poll token that is ours (constant-time compare); no other kind passes as one. */
export function verifyPollToken(signer: Signer, raw: string | undefined): TokenCheck<"poll"> {
  const parts = (raw ?? "").split(".");
  if (parts.length !== 5) return { ok: false, reason: "invalid" };
  const [kind, subscriberId = "", pollId = "", answerIndex = "", signature = ""] = parts;
  if (kind !== "v" || !idPattern.test(subscriberId) || !idPattern.test(pollId) || !/^[0-4]$/.test(answerIndex))
    return { ok: false, reason: "invalid" };
  if (!signer.verify("subscription-token", `poll.v.${subscriberId}.${pollId}.${answerIndex}`, signature)) return { ok: false, reason: "invalid" };
  return { ok: true, token: { purpose: "poll", subscriberId: Number(subscriberId), pollId: Number(pollId), answerIndex: Number(answerIndex) } };
}
