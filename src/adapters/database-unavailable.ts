import type { SqlExecutor, SqlQueryable } from "../core/db/sql-executor.ts";
import { DatabaseUnavailableError } from "../core/errors.ts";

const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "57014", // query_canceled: our statement_timeout ran out
  "57P01", // admin_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
]);

/**
 * True when a driver error says the database could not be reached, refused the connection for now
 * or did not answer in time (not that the query was wrong): a network error code, a Postgres "try
 * later" code, a dropped connection, a connection or statement timeout, Neon's HTTP driver failing
 * to fetch, timing out or getting a 5xx answer, or its WebSocket failing.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // Neon's WebSocket pool (transactions) rejects with the socket's error event when it can't connect.
  if (error instanceof Event) return error.type === "error";
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && unavailableCodes.has(code)) return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  // `AbortSignal.timeout` on Neon's HTTP fetch, when it fires while the answer is being read.
  if (error.name === "TimeoutError") return true;
  // By name: importing Neon's class here would load its driver where `pg` is in use.
  if (error.name === "NeonDbError") {
    const { sourceError } = error as { sourceError?: unknown };
    if (sourceError !== undefined) return true; // the fetch itself failed
    if (/^Server error \(HTTP status 5\d\d\)/.test(error.message)) return true;
  }
  // pg's own wording: a dropped or timed-out connection, no free client in time, no answer in time.
  return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Query read timeout/.test(error.message);
}

/** Runs a driver call; unavailability comes out as `DatabaseUnavailableError` (original as `cause`). */
async function translating<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw isDatabaseUnavailable(error) ? new DatabaseUnavailableError({ cause: error }) : error;
  }
}

function translatingQueryable(target: SqlQueryable): SqlQueryable {
  return {
    exec: (sql) => translating(() => target.exec(sql)),
    query: <Row>(sql: string, params?: readonly unknown[]) => translating(() => target.query<Row>(sql, params)),
  };
}

/**
 * Wraps a driver's executor so callers see a `DatabaseUnavailableError` instead of the driver's
 * own connection errors: the shared API handler then answers 503 without knowing any driver.
 */
export function withUnavailableErrors(executor: SqlExecutor): SqlExecutor {
  return {
    ...translatingQueryable(executor),
    transaction: (fn) => translating(() => executor.transaction((tx) => fn(translatingQueryable(tx)))),
    close: () => executor.close(),
  };
}
