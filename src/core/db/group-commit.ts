import type { SqlQueryable } from "./sql-executor.ts";

/**
 * Rows written together (group commit): while one statement is on its way, the rows that arrive
 * meanwhile wait and go in the next one, each caller answered only once its own row is written —
 * or with the error of the statement that carried it. One statement for many is what lets a single
 * database session (`npm start`'s) keep up: page views (decision 0033), and a signup's count and
 * the outbox's "sent" marks (decision 0043).
 */
export function groupCommit<Row>(
  write: (db: SqlQueryable, rows: Row[]) => Promise<void>,
  maxBatch = 500,
): (db: SqlQueryable, row: Row) => Promise<void> {
  const queues = new WeakMap<SqlQueryable, { waiting: { row: Row; done: (error?: Error) => void }[]; writing: boolean }>();

  async function drain(db: SqlQueryable, queue: { waiting: { row: Row; done: (error?: Error) => void }[]; writing: boolean }): Promise<void> {
    queue.writing = true;
    while (queue.waiting.length > 0) {
      const batch = queue.waiting.splice(0, maxBatch);
      try {
        await write(
          db,
          batch.map((entry) => entry.row),
        );
        for (const entry of batch) entry.done();
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const entry of batch) entry.done(failure);
      }
    }
    queue.writing = false;
  }

  return (db, row) => {
    let queue = queues.get(db);
    if (!queue) queues.set(db, (queue = { waiting: [], writing: false }));
    const mine = queue;
    return new Promise((resolve, reject) => {
      mine.waiting.push({ row, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!mine.writing) void drain(db, mine);
    });
  };
}
