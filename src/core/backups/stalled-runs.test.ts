import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { multipartBody } from "../../../tests/support/multipart.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { emptyReport, type ImportRun } from "../imports/import.schema.ts";
import { uploadKey } from "../imports/import-runs.ts";
import { backupIfDue } from "./backup-runs.ts";
import { heartbeatEveryMs, interruptedImportMessage, interruptedRunMessage, markStalledRuns, stalledAfterMs, withHeartbeat } from "./stalled-runs.ts";

const minute = 60 * 1000;
let app: TestApp;
let clock: FakeClock;
let ghost: string;

beforeAll(async () => {
  clock = createFakeClock(new Date("2026-11-27T09:00:00Z"));
  app = await createTestApp({ clock });
  // Images on a closed port: refused, listed in the report; the posts import all the same.
  ghost = (await readFile(new URL("../../../tests/fixtures/imports/ghost-5.json", import.meta.url), "utf8")).replaceAll(
    "{{SERVER}}",
    "http://127.0.0.1:9",
  );
}, 180_000);
afterAll(async () => {
  await app.close();
});

describe("runs that stop without a word", () => {
  it("an import killed mid-run is marked interrupted by the next tick (its upload deleted) and finishes when run again", async () => {
    const db = app.deps.db;
    // What `kill -9` halfway through leaves: the run `running`, its upload kept, one post of four imported, the last heartbeat long ago.
    const key = uploadKey("a1b2c3d4-0000-4000-8000-000000000001");
    await app.deps.files.put(key, new TextEncoder().encode(ghost), { contentType: "application/octet-stream" });
    const { rows } = await db.query<{ id: number }>(
      "INSERT INTO import_runs (source, dry_run, file_key, report, created_at, heartbeat_at) VALUES ('ghost', false, $1, $3, $2, $2) RETURNING id",
      [key, clock.now(), JSON.stringify(emptyReport())],
    );
    const id = rows[0]?.id ?? 0;
    const { rows: posts } = await db.query<{ id: number }>(
      "INSERT INTO posts (title, content, slug) VALUES ('Cash flow before growth', '<p>x</p>', 'cash-flow-before-growth') RETURNING id",
    );
    await db.query("INSERT INTO imported_posts (source, source_id, post_id) VALUES ('ghost', '65a1b2c3d4e5f60001aaaa01', $1)", [posts[0]?.id]);
    const headers = await app.adminHeaders();
    const status = async () => ((await (await app.call(`/api/imports/${String(id)}`, { headers })).json()) as ImportRun).status;

    // The weekly backup's check is the tick (a backup made today: it starts none).
    await db.query("INSERT INTO backup_runs (kind, status, created_at) VALUES ('backup', 'done', $1)", [clock.now()]);
    // Within 5 minutes of its last heartbeat it may still be alive: left alone.
    clock.advance(stalledAfterMs - minute);
    expect(await backupIfDue(app.deps)).toBeNull();
    expect(await status()).toBe("running");
    clock.advance(2 * minute);
    await backupIfDue(app.deps);
    const run = (await (await app.call(`/api/imports/${String(id)}`, { headers })).json()) as ImportRun;
    expect(run).toMatchObject({ status: "failed", error: interruptedImportMessage });
    expect(await app.deps.files.get(key)).toBeNull();

    // Run again with the same file: what was imported stays, the rest is added.
    const { body, contentType } = await multipartBody({ source: "ghost", file: new File([ghost], "ghost.json"), dryRun: "false" });
    const started = await app.call("/api/imports", { method: "POST", body, headers: { ...headers, "content-type": contentType } });
    expect(started.status).toBe(202);
    const again = (await (await app.call(`/api/imports/${String(((await started.json()) as { id: number }).id)}`, { headers })).json()) as ImportRun;
    expect(again.status).toBe("done");
    expect(again.report.posts).toEqual({ new: 3, skipped: 1, failed: 0 });
  });

  it("a running job stamps its heartbeat, so it is never taken for dead; a backup or restore that stopped is marked too", async () => {
    const db = app.deps.db;
    const { rows } = await db.query<{ id: number }>("INSERT INTO backup_runs (kind, created_at) VALUES ('backup', $1) RETURNING id", [clock.now()]);
    const id = rows[0]?.id ?? 0;
    await app.deps.files.put(`backups/2026-11-27-${String(id)}/part-00001`, new Uint8Array([1]), { contentType: "application/octet-stream" });
    let finish = () => undefined as void;
    const working = withHeartbeat(app.deps, { kind: "backup", id }, () => new Promise<void>((resolve) => (finish = resolve)));
    for (let beat = 0; beat < 20; beat++) {
      await waitForSleepers();
      clock.advance(heartbeatEveryMs);
    }
    await waitForSleepers();
    expect(await markStalledRuns(app.deps)).toEqual({ imports: 0, backups: 0, restores: 0 });
    finish();
    await working;
    expect(clock.sleeping()).toBe(0);
    clock.advance(stalledAfterMs + minute);
    expect(await markStalledRuns(app.deps)).toEqual({ imports: 0, backups: 1, restores: 0 });
    expect((await db.query("SELECT status, error FROM backup_runs WHERE id = $1", [id])).rows).toEqual([
      { status: "failed", error: interruptedRunMessage },
    ]);
    const left: string[] = [];
    for await (const key of app.deps.files.list(`backups/2026-11-27-${String(id)}/`)) left.push(key);
    expect(left).toEqual([]);
  });
});

/** The heartbeat's loop asleep again (its stamp written): facts, not time. */
async function waitForSleepers(): Promise<void> {
  for (let tries = 0; tries < 1000 && clock.sleeping() === 0; tries++) await new Promise((resolve) => setImmediate(resolve));
}
