import { PGlite } from "@electric-sql/pglite";
import type { SqlExecutor, SqlQueryable } from "../core/db/sql-executor.ts";

/**
 * An in-process Postgres (PGlite) behind the executor seam: used by tests for speed and by
 * anything that needs a throwaway database. `dataDir` undefined keeps it in memory. An adapter (see
 * blobs-file-store.ts): core code knows only the `SqlExecutor` seam.
 */
export async function createPgliteExecutor(dataDir?: string, options: { from?: Blob } = {}): Promise<SqlExecutor> {
  const db = await PGlite.create(dataDir, options.from ? { loadDataDir: options.from } : {});
  return executorOf(db);
}

/**
 * A database prepared once (migrated, say) as a tarball that `createPgliteExecutor(undefined, { from })`
 * boots from: the tests' databases start from it instead of running every migration again.
 */
export async function pgliteSnapshot(prepare: (db: SqlExecutor) => Promise<void>): Promise<Blob> {
  const db = await PGlite.create();
  try {
    await prepare(executorOf(db));
    return await db.dumpDataDir("none");
  } finally {
    await db.close();
  }
}

function executorOf(db: PGlite): SqlExecutor {
  const wrap = (target: Pick<PGlite, "exec" | "query">): SqlQueryable => ({
    async exec(sql) {
      await target.exec(sql);
    },
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query<Row>(sql, [...params]);
      return { rows: result.rows };
    },
  });
  return {
    ...wrap(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: () => db.close(),
  };
}
