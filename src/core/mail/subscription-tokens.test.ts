import { describe, expect, it } from "vitest";
import { signDownloadLink } from "../downloads/download-link.ts";
import { keyRing } from "../shared/signer.ts";
import {
  confirmTokenLifetimeSeconds,
  signConfirmToken,
  signPreferencesToken,
  signUnsubscribeToken,
  verifyConfirmToken,
  verifyPreferencesToken,
  verifyUnsubscribeToken,
} from "./subscription-tokens.ts";

const secret = keyRing(["a".repeat(32)]);
const now = new Date("2026-01-05T09:00:00Z");
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe("subscription tokens", () => {
  it("a preferences token carries its subscriber, does not expire, and is no unsubscribe token (nor one of another key)", () => {
    const token = signPreferencesToken(secret, 12);
    expect(token).toMatch(/^p\.12\.[\w-]{43}$/);
    expect(verifyPreferencesToken(secret, token)).toEqual({ ok: true, token: { purpose: "preferences", subscriberId: 12 } });
    expect(verifyPreferencesToken(secret, signUnsubscribeToken(secret, 12))).toEqual({ ok: false, reason: "invalid" });
    expect(verifyUnsubscribeToken(secret, token)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyPreferencesToken(secret, token.replace("p.12.", "p.13."))).toEqual({ ok: false, reason: "invalid" });
    expect(verifyPreferencesToken(keyRing(["b".repeat(32)]), token)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyPreferencesToken(secret, undefined)).toEqual({ ok: false, reason: "invalid" });
  });

  it("a confirm token carries its subscriber and consent record and works for 7 days", () => {
    const token = signConfirmToken(secret, 12, 34, now);
    expect(token).toMatch(/^c\.12\.34\.\d+\.[\w-]{43}$/);
    expect(verifyConfirmToken(secret, token, later(confirmTokenLifetimeSeconds - 1))).toMatchObject({
      ok: true,
      token: { purpose: "confirm", subscriberId: 12, consentId: 34 },
    });
    expect(verifyConfirmToken(secret, token, later(confirmTokenLifetimeSeconds))).toEqual({ ok: false, reason: "expired" });
  });

  it("an unsubscribe token carries its subscriber and does not expire", () => {
    const token = signUnsubscribeToken(secret, 12);
    expect(token).toMatch(/^u\.12\.[\w-]{43}$/);
    expect(verifyUnsubscribeToken(secret, token)).toEqual({ ok: true, token: { purpose: "unsubscribe", subscriberId: 12 } });
  });

  it("refuses another secret, an altered part, one kind used as the other, and garbage", () => {
    const confirm = signConfirmToken(secret, 12, 34, now);
    const unsubscribe = signUnsubscribeToken(secret, 12);
    const invalid = { ok: false, reason: "invalid" };
    expect(verifyConfirmToken(keyRing(["b".repeat(32)]), confirm, now)).toEqual(invalid);
    expect(verifyConfirmToken(secret, confirm.replace("c.12.", "c.13."), now)).toEqual(invalid);
    expect(verifyConfirmToken(secret, confirm.replace(".34.", ".35."), now)).toEqual(invalid);
    expect(verifyUnsubscribeToken(secret, unsubscribe.replace("u.12.", "u.13."))).toEqual(invalid);
    expect(verifyConfirmToken(secret, unsubscribe, now)).toEqual(invalid);
    expect(verifyUnsubscribeToken(secret, confirm)).toEqual(invalid);
    // An expired forgery is "invalid", not "expired": the signature is checked first.
    expect(verifyConfirmToken(secret, "c.12.34.1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", now)).toEqual(invalid);
    for (const garbage of [undefined, "", "c", "c.0.1.2.x", "u.01.x", `${unsubscribe}.extra`]) {
      expect(verifyConfirmToken(secret, garbage, now)).toEqual(invalid);
      expect(verifyUnsubscribeToken(secret, garbage)).toEqual(invalid);
    }
  });

  it("never matches a download link's signature for the same numbers", () => {
    const link = signDownloadLink(secret, 12, now);
    expect(verifyUnsubscribeToken(secret, `u.12.${link.signature}`)).toEqual({ ok: false, reason: "invalid" });
  });
});
