import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { ForbiddenError, RateLimitedError, UnauthorizedError } from "../errors.ts";
import {
  apiKeyRateLimit,
  authenticateApiKey,
  createApiKey,
  keyRefusedMessage,
  listApiKeys,
  missingScopeMessage,
  requireScope,
  revokeApiKey,
  takeApiKeyCall,
  type ApiKeysDeps,
} from "./api-keys.service.ts";

describe.each(featureDatabaseTargets)("API keys on $name", (target) => {
  let testDb: TestDatabase;
  let clock: FakeClock;
  let deps: ApiKeysDeps;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    clock = createFakeClock(new Date("2026-03-02T10:00:00Z"));
    deps = { db: testDb.db, now: clock.now };
  });
  afterAll(async () => {
    await testDb.drop();
  });

  const lastUsed = async (id: number) => (await listApiKeys(deps)).find((key) => key.id === id)?.lastUsedAt;

  it("shows a key once and keeps only its SHA-256", async () => {
    const created = await createApiKey(deps, { name: "CRM", scopes: ["subscribers:read"] });
    expect(created.key).toMatch(/^nf_[\w-]{43}$/);
    expect(created).toMatchObject({ name: "CRM", scopes: ["subscribers:read"], prefix: created.key.slice(0, 7), lastUsedAt: null });
    const { rows } = await testDb.db.query<Record<string, unknown>>("SELECT * FROM api_keys WHERE id = $1", [created.id]);
    expect(rows[0]?.key_hash).toBe(createHash("sha256").update(created.key).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(created.key);
    const listed = (await listApiKeys(deps)).find((key) => key.id === created.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty("key");
    // Two keys never share a value.
    expect((await createApiKey(deps, { name: "CRM", scopes: ["subscribers:read"] })).key).not.toBe(created.key);
  });

  it("authenticates a key to its scopes, and refuses a wrong one", async () => {
    const created = await createApiKey(deps, { name: "Sheet", scopes: ["content:read", "stats:read"] });
    expect(await authenticateApiKey(deps, created.key)).toEqual({ id: created.id, scopes: ["content:read", "stats:read"] });
    const otherLast = created.key.endsWith("A") ? "B" : "A";
    await expect(authenticateApiKey(deps, `${created.key.slice(0, -1)}${otherLast}`)).rejects.toThrow(UnauthorizedError);
    await expect(authenticateApiKey(deps, "not-a-key")).rejects.toThrow(UnauthorizedError);
  });

  it("writes the last use at most once a minute", async () => {
    const created = await createApiKey(deps, { name: "Busy", scopes: ["content:read"] });
    const first = clock.now().toISOString();
    await authenticateApiKey(deps, created.key);
    expect(await lastUsed(created.id)).toBe(first);
    clock.advance(59_000);
    await authenticateApiKey(deps, created.key);
    expect(await lastUsed(created.id)).toBe(first);
    clock.advance(1_000);
    await authenticateApiKey(deps, created.key);
    expect(await lastUsed(created.id)).toBe(clock.now().toISOString());
  });

  it("refuses a revoked key at once", async () => {
    const created = await createApiKey(deps, { name: "Leaked", scopes: ["subscribers:write"] });
    await authenticateApiKey(deps, created.key);
    await revokeApiKey(deps, created.id);
    await expect(authenticateApiKey(deps, created.key)).rejects.toThrow(UnauthorizedError);
    expect((await listApiKeys(deps)).some((key) => key.id === created.id)).toBe(false);
    await expect(revokeApiKey(deps, created.id)).rejects.toMatchObject({ status: 404 });
  });

  it("holds a key to its scopes, and never lets one make a call that names none", () => {
    const caller = { id: 1, scopes: ["subscribers:read"] as const };
    expect(() => requireScope(caller, "subscribers:read")).not.toThrow();
    expect(() => requireScope(caller, "subscribers:write")).toThrow(new ForbiddenError(missingScopeMessage("subscribers:write")));
    expect(() => requireScope(caller, "none")).toThrow(new ForbiddenError(keyRefusedMessage));
    expect(() => requireScope(caller, undefined)).toThrow(new ForbiddenError(keyRefusedMessage));
  });

  it("allows 600 calls a minute per key, then 429 with the wait; another key is not affected", async () => {
    const busy = await authenticateApiKey(deps, (await createApiKey(deps, { name: "Loop", scopes: ["content:read"] })).key);
    const calm = await authenticateApiKey(deps, (await createApiKey(deps, { name: "Calm", scopes: ["content:read"] })).key);
    // From the start of a window, so the count is this minute's alone.
    clock.advance(apiKeyRateLimit.windowMs - (clock.now().getTime() % apiKeyRateLimit.windowMs));
    for (let call = 0; call < apiKeyRateLimit.max; call++) await takeApiKeyCall(deps, busy);
    const refused = await takeApiKeyCall(deps, busy).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    await takeApiKeyCall(deps, calm);
    // A minute on, the previous minute's calls slide out as this one goes.
    clock.advance(apiKeyRateLimit.windowMs + 30_000);
    await takeApiKeyCall(deps, busy);
    // Hundreds of calls one after another: over the Neon driver each is an HTTP request, 30 s at CI load.
  }, 120_000);
});
