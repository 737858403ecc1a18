import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildHookRebuilder } from "../../src/adapters/build-hook.ts";
import { sharedRebuilder } from "../../src/adapters/shared-build-hook.ts";
import type { SqlExecutor } from "../../src/core/db/sql-executor.ts";
import { buildStatus, retryUnbuiltChanges } from "../../src/core/publishing/build-status.ts";
import type { RequestRebuild } from "../../src/core/publishing/rebuild.ts";
import { createFakeClock, type FakeClock } from "../support/fake-clock.ts";
import { createMigratedDatabase } from "../support/test-databases.ts";

// Finding 2 of the round-3 review: publish answered 201, the build hook answered 503 once, and
// nothing called it again — the site never changed and the dashboard did not say so.
let db: SqlExecutor;
let hook: Server;
let hookUrl: string;
let answers: number[];
let calls: number;
let clock: FakeClock;
let logs: string[];

beforeAll(async () => {
  db = await createMigratedDatabase();
  hook = createServer((_request, response) => {
    calls += 1;
    response.writeHead(answers.shift() ?? 200).end();
  });
  hook.listen(0, "127.0.0.1");
  await once(hook, "listening");
  hookUrl = `http://127.0.0.1:${String((hook.address() as AddressInfo).port)}/build`;
});
afterAll(async () => {
  hook.close();
  await db.close();
});
beforeEach(async () => {
  await db.query(
    "UPDATE site_build_status SET requested_at = NULL, built_through = NULL, last_attempt_at = NULL, failed_attempts = 0, last_error = NULL",
  );
  answers = [];
  calls = 0;
  clock = createFakeClock();
  logs = [];
});

/** Runs a rebuild (or the retry check) and waits for the work it handed over. */
async function handedOver(run: (waitUntil: (promise: Promise<unknown>) => void) => unknown): Promise<void> {
  const handed: Promise<unknown>[] = [];
  await run((promise) => handed.push(promise));
  await Promise.all(handed);
}

const rebuilders: [string, () => RequestRebuild][] = [
  ["the build hook rebuilder (npm start)", () => buildHookRebuilder(hookUrl, { track: { db, now: clock.now }, log: (line) => logs.push(line) })],
  [
    "the shared rebuilder (Netlify)",
    () => sharedRebuilder({ db, url: hookUrl, now: clock.now, sleep: clock.sleep, track: { db, now: clock.now }, log: (line) => logs.push(line) }),
  ],
];

describe.each(rebuilders)("a change reaches the site through %s", (_name, makeRebuilder) => {
  it("retries a hook that answered 503 once, with backoff, and says so until the site is built", async () => {
    const rebuild = makeRebuilder();
    answers = [503];
    await handedOver((waitUntil) => rebuild({ waitUntil }));
    expect(calls).toBe(1);
    expect(logs).toEqual(["[publish] build hook answered 503"]);
    expect(await buildStatus({ db })).toMatchObject({ state: "retrying", lastError: "build hook answered 503" });

    // Not yet due: the first retry waits a minute.
    clock.advance(30_000);
    await handedOver((waitUntil) => retryUnbuiltChanges({ db, now: clock.now, rebuild }, { waitUntil }));
    expect(calls).toBe(1);

    clock.advance(30_000);
    await handedOver((waitUntil) => retryUnbuiltChanges({ db, now: clock.now, rebuild }, { waitUntil }));
    expect(calls).toBe(2);
    expect(await buildStatus({ db })).toMatchObject({ state: "live", lastError: null });

    // Built: the check has nothing more to do.
    clock.advance(10 * 60_000);
    expect(await retryUnbuiltChanges({ db, now: clock.now, rebuild })).toBe(false);
    expect(calls).toBe(2);
  });

  it("keeps retrying a hook that keeps failing, further apart each time", async () => {
    const rebuild = makeRebuilder();
    answers = [500, 500, 500];
    await handedOver((waitUntil) => rebuild({ waitUntil }));
    const retries: number[] = [];
    for (let minute = 1; minute <= 8; minute++) {
      clock.advance(60_000);
      const before = calls;
      await handedOver((waitUntil) => retryUnbuiltChanges({ db, now: clock.now, rebuild }, { waitUntil }));
      if (calls > before) retries.push(minute);
    }
    // Failed at 0, retried after 1 minute (failed), 2 more (failed), 4 more (built).
    expect(retries).toEqual([1, 3, 7]);
    expect((await buildStatus({ db })).state).toBe("live");
  });
});
