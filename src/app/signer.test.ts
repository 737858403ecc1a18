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
});
