/**
 * The one seam between domain code and Postgres. PGlite, `pg` and the Neon driver all fit it, so
 * services never know which database they talk to (the shape Netlify's own database packages use).
 */
export interface SqlQueryable {
  /** Runs one or more statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
  /** Runs one parameterized statement (`$1`, `$2`, …) and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
}

export interface SqlExecutor extends SqlQueryable {
  /** Runs `fn` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Releases connections; the executor is unusable afterwards. */
  close(): Promise<void>;
}
