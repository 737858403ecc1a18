import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createFakeClock } from "../../tests/support/fake-clock.ts";
import { createMigratedDatabase } from "../../tests/support/test-databases.ts";
import type { SqlExecutor } from "../core/db/sql-executor.ts";
import { sharedRebuilder } from "./shared-build-hook.ts";

let db: SqlExecutor;
let calls: number;
let pending: Promise<unknown>[];
const fetch = () => {
  calls += 1;
  return Promise.resolve(new Response(null, { status: 200 }));
};
const waitUntil = (promise: Promise<unknown>) => {
  pending.push(promise);
};

beforeEach(async () => {
  db = await createMigratedDatabase();
  calls = 0;
  pending = [];
});
afterEach(async () => {
  await db.close();
});

describe("shared (database) rebuilder", () => {
  it("calls at once, then turns a burst inside the window into one trailing call", async () => {
    const clock = createFakeClock();
    // Two "instances" sharing one database.
    const a = sharedRebuilder({ db, url: "https://hooks.example/build", windowMs: 300, fetch, ...clock });
    const b = sharedRebuilder({ db, url: "https://hooks.example/build", windowMs: 300, fetch, ...clock });
    a({ waitUntil });
    await Promise.all(pending);
    expect(calls).toBe(1);
    for (let i = 0; i < 5; i++) {
      clock.advance(10);
      (i % 2 ? a : b)({ waitUntil });
    }
    // Every request of the burst now waits for the window to end; none has called.
    await vi.waitFor(() => expect(clock.sleeping()).toBe(5), { timeout: 10_000 });
    expect(calls).toBe(1);
    clock.advance(300);
    await Promise.all(pending);
    expect(calls).toBe(2);
  });

  it("makes no trailing call when nothing changed since the last one", async () => {
    const clock = createFakeClock();
    const rebuild = sharedRebuilder({ db, url: "https://hooks.example/build", windowMs: 100, fetch, ...clock });
    rebuild({ waitUntil });
    await Promise.all(pending);
    clock.advance(150);
    rebuild({ waitUntil });
    await Promise.all(pending);
    expect(calls).toBe(2);
    expect(clock.sleeping()).toBe(0);
  });

  it("logs a failing hook instead of throwing", async () => {
    const logs: string[] = [];
    const rebuild = sharedRebuilder({
      db,
      url: "https://hooks.example/build",
      fetch: () => Promise.reject(new Error("down")),
      log: (message) => logs.push(message),
    });
    rebuild({ waitUntil });
    await Promise.all(pending);
    expect(logs).toEqual(["[publish] build hook failed: down"]);
  });
});
