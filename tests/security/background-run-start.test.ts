import { describe, expect, it } from "vitest";
import { signRunRequest, spendRunRequest, verifyRunRequest } from "../../src/adapters/background-run.ts";
import { keyRing } from "../../src/core/shared/signer.ts";
import { createMigratedDatabase } from "../support/test-databases.ts";

// Finding 8 of the round-3 review: a captured start of the Background Function could be replayed
// for 30 minutes, each replay a new 15-minute run. Now a start lives a minute and is spent once.
const signer = keyRing(["s".repeat(48)]);
const now = new Date("2026-01-05T09:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);
const start = { name: "newsletter-send-background", job: "run" };

describe("a background run starts once", () => {
  it("refuses a start issued over a minute ago", () => {
    const signed = signRunRequest(signer, now, start);
    expect(verifyRunRequest(signer, signed, later(61_000), start.name)).toBeNull();
  });

  it("is spent once: a replay of the same start is refused, another start is not", async () => {
    const db = await createMigratedDatabase();
    try {
      const first = verifyRunRequest(signer, signRunRequest(signer, now, start), now, start.name);
      const second = verifyRunRequest(signer, signRunRequest(signer, now, start), now, start.name);
      if (!first || !second) throw new Error("a fresh start should verify");
      expect(await spendRunRequest(db, first, now)).toBe(true);
      expect(await spendRunRequest(db, first, later(1000))).toBe(false);
      expect(await spendRunRequest(db, second, later(1000))).toBe(true);
      // Old nonces are pruned once their requests could no longer verify.
      await spendRunRequest(db, { nonce: "n".repeat(22), issuedAt: later(10 * 60_000) }, later(10 * 60_000));
      const { rows } = await db.query<{ count: string }>("SELECT count(*)::text AS count FROM background_run_starts");
      expect(rows[0]?.count).toBe("1");
    } finally {
      await db.close();
    }
  });
});
