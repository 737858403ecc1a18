import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { groupCommit } from "./group-commit.ts";
import type { SqlQueryable } from "./sql-executor.ts";

describe.each(databaseTargets)("group commit on $name", (target) => {
  let testDb: TestDatabase;
  let statements = 0;
  /** The real database, counting the statements that reach it. */
  let counted: SqlQueryable;

  beforeAll(async () => {
    testDb = await target.create();
    await testDb.db.exec("CREATE TABLE notes (n int PRIMARY KEY CHECK (n >= 0))");
    counted = {
      exec: (sql) => testDb.db.exec(sql),
      query: (sql, params) => {
        statements += 1;
        return testDb.db.query(sql, params);
      },
    };
  });
  afterAll(() => testDb.drop());

  const write = groupCommit<number>(async (db, rows) => {
    await db.query("INSERT INTO notes (n) SELECT * FROM unnest($1::int[])", [rows]);
  }, 100);

  it("writes rows that arrive while a statement is on its way in the next one, answering each caller once its row is in", async () => {
    statements = 0;
    await Promise.all(Array.from({ length: 250 }, (_, n) => write(counted, n)));
    const { rows } = await testDb.db.query<{ count: number }>("SELECT count(*)::int AS count FROM notes");
    expect(rows[0]?.count).toBe(250);
    // The first row alone, then the 249 that waited in batches of at most 100.
    expect(statements).toBe(4);
  });

  it("a statement that fails rejects the callers whose rows it carried, and the next batch still goes in", async () => {
    const [lone, bad, good] = await Promise.allSettled([write(counted, 1000), write(counted, -1), write(counted, 1001)]);
    expect(lone?.status).toBe("fulfilled");
    // -1 and 1001 went in one statement, which the check refused whole.
    expect(bad?.status).toBe("rejected");
    expect(good?.status).toBe("rejected");
    await write(counted, 1002);
    const { rows } = await testDb.db.query<{ n: number }>("SELECT n FROM notes WHERE n >= 1000 ORDER BY n");
    expect(rows.map((row) => row.n)).toEqual([1000, 1002]);
  });
});
