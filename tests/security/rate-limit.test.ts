import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RateLimitedError } from "../../src/core/errors.ts";
import { takeRateLimit, type RateLimit } from "../../src/core/rate-limit.ts";
import { featureDatabaseTargets, type TestDatabase } from "../support/test-databases.ts";

const limit: RateLimit = { bucket: "security", max: 10, windowMs: 10 * 60 * 1000 };
const windowStart = Date.UTC(2026, 2, 1, 9, 0);

describe.each(featureDatabaseTargets)("public rate limits on $name", (target) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await target.createMigrated();
  });
  afterAll(async () => {
    await testDb.drop();
  });
  const take = (client: string, atMs: number) => takeRateLimit({ db: testDb.db, now: () => new Date(windowStart + atMs) }, limit, client);
  const allowed = async (attempt: Promise<void>) => {
    try {
      await attempt;
      return true;
    } catch (error) {
      if (error instanceof RateLimitedError) return false;
      throw error;
    }
  };

  it("lets exactly `max` of a concurrent burst from one client through (20 bursts of 40)", async () => {
    const passed: number[] = [];
    for (let round = 0; round < 20; round++) {
      const results = await Promise.all(Array.from({ length: 40 }, () => allowed(take(`198.51.100.${String(100 + round)}`, 1000))));
      passed.push(results.filter(Boolean).length);
    }
    console.info(`[security] ${target.name}: of 40 concurrent takes with max ${String(limit.max)}, allowed per burst: ${passed.join(", ")}`);
    expect(passed).toEqual(Array<number>(20).fill(limit.max));
    // 800 statements: on the Neon driver through its proxy, beside the checks that now run with vitest, over 30 s.
  }, 120_000);

  it("folds the previous window in atomically too", async () => {
    for (let i = 0; i < 10; i++) await take("198.51.100.31", 2000);
    // Half-way through the next window, half of the previous one still counts: 5 more.
    const results = await Promise.all(Array.from({ length: 40 }, () => allowed(take("198.51.100.31", limit.windowMs * 1.5))));
    expect(results.filter(Boolean).length).toBe(5);
  });

  it("keys an IPv6 address by its /64", async () => {
    const results: boolean[] = [];
    for (let i = 1; i <= 12; i++) results.push(await allowed(take(`2001:db8:5:6::${i.toString(16)}`, 3000)));
    expect(results.filter(Boolean).length).toBe(limit.max);
    expect(await allowed(take("2001:db8:5:7::1", 3000))).toBe(true);
  });

  it("deletes old windows of every client, not only the caller's", async () => {
    for (let i = 0; i < 30; i++) await take(`192.0.2.${String(i)}`, 4000);
    await take("192.0.2.250", limit.windowMs * 3);
    const { rows } = await testDb.db.query<{ client_key: string }>("SELECT client_key FROM rate_limit_counters WHERE bucket = $1", [limit.bucket]);
    expect(rows.map((row) => row.client_key)).toEqual(["192.0.2.250"]);
  });
});
