import { describe, expect, it } from "vitest";
import { signerFor } from "./signer.ts";

describe("the app's signer", () => {
  it("signs with SESSION_SECRET, or with one random secret per process", () => {
    const secret = "s".repeat(48);
    const withSecret = signerFor({ SESSION_SECRET: secret });
    const signature = withSecret.sign("download-link", "7.100");
    expect(signerFor({ SESSION_SECRET: secret }).verify("download-link", "7.100", signature)).toBe(true);
    const fallback = signerFor({});
    expect(fallback.verify("download-link", "7.100", signature)).toBe(false);
    expect(signerFor({ SESSION_SECRET: undefined }).verify("download-link", "7.100", fallback.sign("download-link", "7.100"))).toBe(true);
  });

  it("signs with SESSION_SECRET and still verifies what the secrets of SESSION_SECRET_PREVIOUS signed", () => {
    const [older, old, current] = ["a".repeat(40), "b".repeat(40), "c".repeat(40)];
    const rotated = signerFor({ SESSION_SECRET: current, SESSION_SECRET_PREVIOUS: `${old},${older}` });
    for (const secret of [older, old]) {
      expect(rotated.verify("subscription-token", "u.7", signerFor({ SESSION_SECRET: secret }).sign("subscription-token", "u.7"))).toBe(true);
    }
    const signature = rotated.sign("subscription-token", "u.7");
    expect(signerFor({ SESSION_SECRET: current }).verify("subscription-token", "u.7", signature)).toBe(true);
    expect(signerFor({ SESSION_SECRET: old }).verify("subscription-token", "u.7", signature)).toBe(false);
  });
});
