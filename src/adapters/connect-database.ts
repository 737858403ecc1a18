/**
 * The `pg` and Neon drivers behind the `SqlExecutor` seam (an adapter, see blobs-file-store.ts), with
 * their connection failures turned into `DatabaseUnavailableError`.
 */
import type { SqlExecutor, SqlQueryable } from "../core/db/sql-executor.ts";
import { withUnavailableErrors } from "./database-unavailable.ts";

/** `pg` for any TCP Postgres (the local emulation, a test server); Neon's driver for Neon. */
export type DatabaseDriver = "pg" | "neon";

export interface ConnectOptions {
  /** Overrides the driver picked from the URL's host. */
  driver?: DatabaseDriver;
  /** Most connections the pool opens (the local emulation serves one session, so it wants 1). */
  maxConnections?: number;
  /**
   * Neon only: a WebSocket-to-TCP proxy (`host:port/path`) in front of a plain Postgres, used by
   * tests to run the production driver against the local PostgreSQL server.
   */
  neonWsProxy?: string;
  /**
   * Neon only: where its HTTP query endpoint is (`http://host:port/sql`); tests point it at a local
   * stand-in. Production uses Neon's own endpoint.
   */
  neonHttpEndpoint?: string;
}

/** Neon's hosts use its serverless driver; everything else speaks the plain wire protocol. */
export function pickDriver(url: string): DatabaseDriver {
  const host = new URL(url).hostname;
  return host.endsWith(".neon.tech") || host.endsWith(".neon.build") ? "neon" : "pg";
}

/** `pg` fails with "user is required" where the shell's USER is empty; Netlify's local URL has none. */
export function withUser(url: string): string {
  const parsed = new URL(url);
  if (parsed.username) return url;
  parsed.username = "postgres";
  return parsed.toString();
}

/** Minimal shape shared by `pg.Pool` and Neon's `Pool` (Neon's is a drop-in for `pg`). */
interface PoolLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  connect(): Promise<PoolClientLike>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}
interface PoolClientLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  release(error?: Error | boolean): void;
}

/** Opens a pooled connection to the database at `url` with the driver its host calls for. */
export async function connectDatabase(rawUrl: string, options: ConnectOptions = {}): Promise<SqlExecutor> {
  const url = withUser(rawUrl);
  const driver = options.driver ?? pickDriver(url);
  const pool = driver === "neon" ? await neonPool(url, options) : await pgPool(url, options);
  // An idle client that loses its connection emits on the pool; unhandled, that would crash the
  // process (seen with Neon through a proxy). The next query reconnects.
  pool.on("error", (error) => console.error(`[db] idle connection error: ${error.message}`));
  const executor = poolExecutor(pool);
  if (driver !== "neon") return withUnavailableErrors(executor);
  // On Neon a single statement goes over HTTP — one round trip, no WebSocket to open on a cold
  // start; multi-statement scripts and transactions keep the WebSocket pool.
  const http = await neonHttpQuery(url, options);
  return withUnavailableErrors({ ...executor, query: http });
}

async function neonHttpQuery(url: string, options: ConnectOptions): Promise<SqlQueryable["query"]> {
  const { neon, neonConfig } = await import("@neondatabase/serverless");
  if (options.neonHttpEndpoint) {
    const endpoint = options.neonHttpEndpoint;
    neonConfig.fetchEndpoint = () => endpoint;
  }
  const sql = neon(url);
  return async <Row>(text: string, params: readonly unknown[] = []) => {
    const rows = await sql.query(text, [...params]);
    return { rows: rows as Row[] };
  };
}

async function pgPool(url: string, options: ConnectOptions): Promise<PoolLike> {
  const { default: pg } = await import("pg");
  return new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 5,
    // Lets build scripts and tests exit without an explicit close.
    allowExitOnIdle: true,
  });
}

async function neonPool(url: string, options: ConnectOptions): Promise<PoolLike> {
  const { Pool, neonConfig } = await import("@neondatabase/serverless");
  if (typeof WebSocket === "undefined") {
    const { default: ws } = await import("ws");
    neonConfig.webSocketConstructor = ws;
  }
  if (options.neonWsProxy) {
    const proxy = options.neonWsProxy;
    neonConfig.wsProxy = (host, port) => `${proxy}?address=${host}:${String(port)}`;
    neonConfig.useSecureWebSocket = false;
    // Pipelining skips round trips that a plain Postgres behind a proxy needs for SCRAM auth.
    neonConfig.pipelineConnect = false;
    neonConfig.pipelineTLS = false;
  }
  return new Pool({ connectionString: url, max: options.maxConnections ?? 5 });
}

function queryable(target: Pick<PoolLike, "query">): SqlQueryable {
  return {
    async exec(sql) {
      await target.query(sql);
    },
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query(sql, [...params]);
      return { rows: result.rows as Row[] };
    },
  };
}

function poolExecutor(pool: PoolLike): SqlExecutor {
  return {
    ...queryable(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(queryable(client));
        await client.query("COMMIT");
        client.release();
        return result;
      } catch (error) {
        try {
          await client.query("ROLLBACK");
          client.release();
        } catch (rollbackError) {
          // A connection that cannot roll back is broken: drop it from the pool.
          client.release(rollbackError as Error);
        }
        throw error;
      }
    },
    close: () => pool.end(),
  };
}
