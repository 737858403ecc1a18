import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { recordBuildFailed, recordBuildRequested, recordBuildSucceeded } from "../../core/publishing/build-status.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("GET /api/site-build", () => {
  it("is the owner's: a visitor gets 401", async () => {
    expect((await app.call("/api/site-build")).status).toBe(401);
  });

  it("says Live, rebuilding, or retrying with the hook's last error", async () => {
    const headers = await app.adminHeaders();
    const status = async () => (await (await app.call("/api/site-build", { headers })).json()) as { state: string; lastError: string | null };
    expect(await status()).toMatchObject({ state: "live", lastError: null });
    const deps = { db: app.deps.db, now: app.deps.now };
    await recordBuildRequested(deps);
    expect(await status()).toMatchObject({ state: "building" });
    await recordBuildFailed(deps, "build hook answered 503");
    expect(await status()).toMatchObject({ state: "retrying", lastError: "build hook answered 503" });
    await recordBuildSucceeded(deps, new Date(app.deps.now().getTime() + 1000));
    expect(await status()).toMatchObject({ state: "live", lastError: null });
  });
});
