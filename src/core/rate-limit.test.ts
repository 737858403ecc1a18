import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { featureDatabaseTargets, type TestDatabase } from "../../tests/support/test-databases.ts";
import { RateLimitedError } from "./errors.ts";
import { retryAfterSeconds, takeRateLimit, type RateLimit } from "./rate-limit.ts";

const minute = 60_000;
const limit: RateLimit = { bucket: "test", max: 10, windowMs: 10 * minute };
// A window boundary, so the tests can place hits at known points of a window.
const windowStart = Math.ceil(Date.UTC(2026, 0, 1) / limit.windowMs) * limit.windowMs;

describe.each(featureDatabaseTargets)("rate limit on $name", (target) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await target.createMigrated();
  });
  afterAll(async () => {
    await testDb.drop();
  });

  const take = (client: string, atMs: number, multiplier = 1) =>
    takeRateLimit({ db: testDb.db, now: () => new Date(windowStart + atMs), env: { RATE_LIMIT_MULTIPLIER: multiplier } }, limit, client);
  const refusal = async (client: string, atMs: number) => {
    try {
      await take(client, atMs);
    } catch (error) {
      if (error instanceof RateLimitedError) return error;
      throw error;
    }
    return null;
  };

  it("allows the limit, then refuses with the wait until a hit slides out; other clients are not affected", async () => {
    for (let i = 0; i < limit.max; i++) await take("a", minute);
    const refused = await refusal("a", 2 * minute);
    expect(refused?.status).toBe(429);
    // The previous window's hits count as spread evenly over it, so they start sliding out as the
    // next window starts, 8 minutes from now.
    expect(refused?.retryAfterSeconds).toBe(8 * 60);
    expect(await refusal("b", 2 * minute)).toBeNull();
  });

  it("weighs the previous window by how much of it is still inside the last 10 minutes", async () => {
    for (let i = 0; i < limit.max; i++) await take("c", 9 * minute);
    // One minute into the next window, 90 % of the previous ten hits still count: 9 → one more allowed.
    expect(await refusal("c", 11 * minute)).toBeNull();
    expect(await refusal("c", 11 * minute)).not.toBeNull();
    // Halfway into it, 5 of the old hits and the 1 new one count: four more.
    for (let i = 0; i < 4; i++) expect(await refusal("c", 15 * minute)).toBeNull();
    expect(await refusal("c", 15 * minute)).not.toBeNull();
  });

  it("does not count refused attempts, and keeps one row per client and window however many hits", async () => {
    for (let i = 0; i < limit.max; i++) await take("d", 0);
    for (let i = 0; i < 20; i++) expect(await refusal("d", minute)).not.toBeNull();
    // Hammering did not extend the wait: at the same point of the next window as after ten hits.
    expect(await refusal("d", limit.windowMs + minute)).toBeNull();

    for (let i = 0; i < 500; i++) await take("e", 0, 1000);
    await take("e", 3 * limit.windowMs, 1000);
    const { rows } = await testDb.db.query<{ window_start: Date; hits: number }>(
      "SELECT window_start, hits FROM rate_limit_counters WHERE client_key = 'e'",
    );
    // The 500 hits were one counter, pruned once two windows had passed.
    expect(rows).toEqual([{ window_start: new Date(windowStart + 3 * limit.windowMs), hits: 1 }]);
    // Counters skip the write-ahead log: a public write then flushes it once, for what it keeps.
    const table = await testDb.db.query<{ relpersistence: string }>("SELECT relpersistence FROM pg_class WHERE relname = 'rate_limit_counters'");
    expect(table.rows).toEqual([{ relpersistence: "u" }]);
    // Hundreds of calls one after another: over the Neon driver each is an HTTP request, 30 s at CI load.
  }, 120_000);
});

describe("retryAfterSeconds", () => {
  it("waits for the previous window to slide out when this one has room", () => {
    // 10 old hits, 5 new, 2 minutes in: under 10 once 50 % of the old window is gone (5 minutes in).
    expect(retryAfterSeconds({ previous: 10, current: 5 }, 10, 10 * minute, 2 * minute)).toBe(3 * 60);
  });
  it("never answers less than a second", () => {
    expect(retryAfterSeconds({ previous: 10, current: 0 }, 10, 10 * minute, 10 * minute - 1)).toBe(1);
  });
});
