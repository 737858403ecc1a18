import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startDatabaseThread } from "./threaded-database.ts";

describe("npm start's database in a thread of its own", () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  async function query(url: string, sql: string, params: unknown[] = []) {
    const client = new pg.Client(url);
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  }

  it("serves Postgres on loopback from another thread, and keeps what it was given across a stop and a start", async () => {
    const directory = path.join(await mkdtemp(path.join(tmpdir(), "nf-db-thread-")), "db");
    folders.push(path.dirname(directory));

    const first = await startDatabaseThread({ directory });
    expect(new URL(first.url).hostname).toBe("localhost");
    await query(first.url, "CREATE TABLE kept (note text)");
    await query(first.url, "INSERT INTO kept VALUES ($1)", ["written before the stop"]);
    // Prepared statements (what the app's one connection uses) work over it too.
    const client = new pg.Client(first.url);
    await client.connect();
    const named = { name: "count-kept", text: "SELECT count(*)::int AS n FROM kept WHERE note <> $1", values: [""] };
    expect((await client.query(named)).rows).toEqual([{ n: 1 }]);
    expect((await client.query(named)).rows).toEqual([{ n: 1 }]);
    await client.end();
    await first.stop();

    const second = await startDatabaseThread({ directory });
    expect(await query(second.url, "SELECT note FROM kept")).toEqual([{ note: "written before the stop" }]);
    await second.stop();
  }, 120_000);
});
