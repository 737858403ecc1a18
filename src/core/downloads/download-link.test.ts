import { describe, expect, it } from "vitest";
import { keyRing } from "../shared/signer.ts";
import { signDownloadLink, verifyDownloadLink } from "./download-link.ts";

const secretText = "a test secret that is long enough to sign links";
const secret = keyRing([secretText]);
const now = new Date("2030-01-01T00:00:00Z");

const parse = (link: { expires: string; signature: string }): { expires: string | null; signature: string | null } => link;

describe("download links", () => {
  it("signs an id with an expiry 24 hours ahead", () => {
    const link = signDownloadLink(secret, 7, now);
    expect(link.signature).toMatch(/^[\w-]{43}$/);
    expect(Number(parse(link).expires)).toBe(now.getTime() / 1000 + 24 * 60 * 60);
    expect(verifyDownloadLink(secret, { id: 7, ...parse(link) }, now)).toBe(true);
  });

  it("refuses another id, another secret, an altered expiry or signature, and missing parts", () => {
    const { expires, signature } = parse(signDownloadLink(secret, 7, now));
    expect(verifyDownloadLink(secret, { id: 8, expires, signature }, now)).toBe(false);
    expect(verifyDownloadLink(keyRing([`${secretText}!`]), { id: 7, expires, signature }, now)).toBe(false);
    expect(verifyDownloadLink(secret, { id: 7, expires: String(Number(expires) + 1), signature }, now)).toBe(false);
    expect(verifyDownloadLink(secret, { id: 7, expires, signature: `${signature?.slice(0, -1) ?? ""}A` }, now)).toBe(false);
    expect(verifyDownloadLink(secret, { id: 7, expires, signature: "short" }, now)).toBe(false);
    expect(verifyDownloadLink(secret, { id: 7, expires: null, signature }, now)).toBe(false);
    expect(verifyDownloadLink(secret, { id: 7, expires: "1e12", signature }, now)).toBe(false);
    expect(verifyDownloadLink(secret, { id: 7, expires, signature: null }, now)).toBe(false);
  });

  it("expires after 24 hours", () => {
    const link = parse(signDownloadLink(secret, 7, now));
    const almost = new Date(now.getTime() + 24 * 60 * 60 * 1000 - 1000);
    const after = new Date(now.getTime() + 24 * 60 * 60 * 1000);
    expect(verifyDownloadLink(secret, { id: 7, ...link }, almost)).toBe(true);
    expect(verifyDownloadLink(secret, { id: 7, ...link }, after)).toBe(false);
  });
});
