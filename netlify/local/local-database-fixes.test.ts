import { mkdtemp, rm } from "node:fs/promises";
import type { Server as NetServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { queryObjects } from "node:v8";
import { NetlifyDev } from "@netlify/dev";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { answerWithoutDelay, releaseParsedAnswers } from "./local-database-fixes.ts";
import { type RawProtocolDatabase, readyStatus, simpleQuery, takeTurns } from "./session-turns.ts";

describe("npm start's database emulation", () => {
  const savedEnv = { ...process.env };
  let projectRoot: string;
  let dev: NetlifyDev;
  let emulation: { server: NetServer; db: RawProtocolDatabase };
  let client: pg.Client;
  /** The class of the "command complete" message the emulation's PGlite parses for every statement. */
  let CommandComplete: new (...args: never[]) => unknown;

  beforeAll(async () => {
    projectRoot = await mkdtemp(path.join(tmpdir(), "nf-local-db-"));
    dev = new NetlifyDev({
      projectRoot,
      aiGateway: { enabled: false },
      edgeFunctions: { enabled: false },
      environmentVariables: { enabled: false },
      functions: { enabled: false },
      geolocation: { enabled: false },
      images: { enabled: false },
      database: { enabled: true },
      serverAddress: null,
    });
    await dev.start();
    emulation = dev.db as unknown as typeof emulation;
    answerWithoutDelay(emulation.server);
    const { messages } = (await emulation.db.execProtocol(simpleQuery("SELECT 1"))) as unknown as { messages: { text?: string }[] };
    CommandComplete = messages.find((message) => message.text === "SELECT 1")?.constructor as typeof CommandComplete;
    client = new pg.Client(process.env.NETLIFY_DB_URL);
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client.end();
    await dev.stop();
    process.env = savedEnv;
    await rm(projectRoot, { recursive: true, force: true });
  });

  const runQueries = async (count: number) => {
    for (let i = 0; i < count; i += 1) await client.query("SELECT $1::int AS n", [i]);
  };
  const keptAnswers = () => queryObjects(CommandComplete, { format: "count" });

  it("keeps every answer it parsed until fixed (if this fails, the emulation lets go itself: drop releaseParsedAnswers)", async () => {
    const before = keptAnswers();
    // A hundred are plenty to tell "one kept per query" from "none" (300 and 600 took 23 s on a loaded machine).
    await runQueries(100);
    expect(keptAnswers() - before).toBeGreaterThanOrEqual(100);
  });

  it("answers queries as before once fixed, and keeps nothing per query", async () => {
    releaseParsedAnswers(emulation.db);
    const before = keptAnswers();
    await runQueries(200);
    expect(keptAnswers() - before).toBeLessThan(10);
    expect((await client.query<{ n: number }>("SELECT $1::int AS n", [42])).rows).toEqual([{ n: 42 }]);
    await expect(client.query("SELECT * FROM no_such_table")).rejects.toThrow(/no_such_table/);
    expect((await client.query<{ n: number }>("SELECT 7 AS n")).rows).toEqual([{ n: 7 }]);
  });

  it("prepares each statement once per connection, and a later connection to the same session prepares its own", async () => {
    const url = process.env.NETLIFY_DB_URL as string;
    const prepared = async () =>
      Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_prepared_statements WHERE name LIKE 'nf\\_%'")).rows[0]?.n);
    const before = await prepared();
    for (let connection = 0; connection < 2; connection += 1) {
      // The emulation keeps one session for every connection: what a closed one prepared is still there.
      const db = await connectDatabase(url, { maxConnections: 1, preparedStatements: true });
      for (let i = 0; i < 5; i += 1) expect((await db.query<{ n: number }>("SELECT $1::int + 1 AS n", [i])).rows).toEqual([{ n: i + 1 }]);
      expect(await db.transaction((tx) => tx.query<{ n: number }>("SELECT $1::int + 1 AS n", [41]))).toEqual({ rows: [{ n: 42 }] });
      await db.close();
    }
    // One statement, prepared once by each of the two connections (not once per run).
    expect((await prepared()) - before).toBe(2);
  });

  describe("its connections, sharing its one session", () => {
    let turns: ReturnType<typeof takeTurns>;
    const connected = async () => {
      const connection = new pg.Client(process.env.NETLIFY_DB_URL);
      await connection.connect();
      return connection;
    };
    const values = async (connection: pg.Client) =>
      (await connection.query<{ n: number }>("SELECT n FROM turns ORDER BY n")).rows.map((row) => row.n);

    beforeAll(async () => {
      turns = takeTurns(emulation);
      await client.query("CREATE TABLE turns (n int)");
    });

    it("run another connection's statements after an open transaction ends, not inside it", async () => {
      const [owner, visitor] = [await connected(), await connected()];
      await owner.query("BEGIN");
      await owner.query("INSERT INTO turns VALUES (1)");
      // Without turns the visitor's write joined the owner's transaction and was rolled back with
      // it, and its read saw the owner's uncommitted row.
      const written = visitor.query("INSERT INTO turns VALUES (2)");
      const read = values(visitor);
      await vi.waitFor(() => expect(turns?.waiting()).toBe(1));
      await owner.query("ROLLBACK");
      await written;
      expect(await read).toEqual([2]);
      expect(await values(owner)).toEqual([2]);
      await Promise.all([owner.end(), visitor.end()]);
    });

    it("roll back the transaction of a connection that goes away, and go on with the others", async () => {
      const [leaver, visitor] = [await connected(), await connected()];
      await leaver.query("BEGIN");
      await leaver.query("INSERT INTO turns VALUES (3)");
      const read = values(visitor);
      await vi.waitFor(() => expect(turns?.waiting()).toBe(1));
      await leaver.end();
      expect(await read).toEqual([2]);
      expect(turns?.holding()).toBe(false);
      await visitor.end();
    });

    it("let a failed statement inside a transaction keep the turn until the rollback", async () => {
      const [owner, visitor] = [await connected(), await connected()];
      await owner.query("BEGIN");
      await expect(owner.query("SELECT * FROM no_such_table")).rejects.toThrow(/no_such_table/);
      const read = values(visitor);
      await vi.waitFor(() => expect(turns?.waiting()).toBe(1));
      await owner.query("ROLLBACK");
      expect(await read).toEqual([2]);
      await Promise.all([owner.end(), visitor.end()]);
    });

    it("read the transaction status from the last ReadyForQuery of an answer", () => {
      const ready = (status: string) => [0x5a, 0, 0, 0, 5, status.charCodeAt(0)];
      const complete = [0x43, 0, 0, 0, 10, ...Buffer.from("BEGIN\0")];
      expect(readyStatus(new Uint8Array([...complete, ...ready("T")]))).toBe("T");
      expect(readyStatus(new Uint8Array([...ready("T"), ...complete, ...ready("I")]))).toBe("I");
      expect(readyStatus(new Uint8Array(complete))).toBeUndefined();
    });
  });
});
