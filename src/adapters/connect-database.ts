/**
 * The `pg` and Neon drivers behind the `SqlExecutor` seam (an adapter, see blobs-file-store.ts), with
 * their connection failures and timeouts turned into `DatabaseUnavailableError`.
 */
import { createHash, randomBytes } from "node:crypto";
import type { SqlExecutor, SqlQueryable } from "../core/db/sql-executor.ts";
import { withUnavailableErrors } from "./database-unavailable.ts";

/** `pg` for any TCP Postgres (the local emulation, a test server); Neon's driver for Neon. */
export type DatabaseDriver = "pg" | "neon";

/**
 * How long a call may wait on the database before it fails (a 503 with `Retry-After`) instead of
 * hanging. Figures and why: docs/decisions/0024-bounded-waits-and-answers.md.
 */
export interface DatabaseTimeouts {
  /** To open a connection: TCP (or Neon's WebSocket), TLS and sign-in. */
  connectMs: number;
  /** For one statement's answer; 0 for none (migrations, which may rightly wait on a lock or build an index). */
  statementMs: number;
}

export const defaultDatabaseTimeouts: DatabaseTimeouts = { connectMs: 5_000, statementMs: 15_000 };

/**
 * With `pg` the server stops a statement at `statementMs` (`statement_timeout`, the connection
 * stays usable); the client gives up this much later if even that answer never comes.
 */
const clientBackstopMs = 1_000;

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
  /** Overrides `defaultDatabaseTimeouts` (tests make them short; migrations turn the statement's off). */
  timeouts?: Partial<DatabaseTimeouts>;
  /**
   * `pg` only: each statement with parameters is prepared once per connection and then only bound
   * and run. For the local emulation (one session, Postgres compiled to WebAssembly on the
   * server's own thread), where parsing and planning each statement again was most of its cost.
   */
  preparedStatements?: boolean;
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
/** A statement `pg` prepares once per connection under `name`, then only binds and runs. */
interface NamedStatement {
  name: string;
  text: string;
  values: unknown[];
}

interface PoolLike {
  query(sql: string | NamedStatement, params?: unknown[]): Promise<{ rows: unknown[] }>;
  connect(): Promise<PoolClientLike>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}
interface PoolClientLike {
  query(sql: string | NamedStatement, params?: unknown[]): Promise<{ rows: unknown[] }>;
  release(error?: Error | boolean): void;
}

/** Opens a pooled connection to the database at `url` with the driver its host calls for. */
export async function connectDatabase(rawUrl: string, options: ConnectOptions = {}): Promise<SqlExecutor> {
  const url = withUser(rawUrl);
  const driver = options.driver ?? pickDriver(url);
  const timeouts = { ...defaultDatabaseTimeouts, ...options.timeouts };
  const pool = driver === "neon" ? await neonPool(url, options, timeouts) : await pgPool(url, options, timeouts);
  // An idle client that loses its connection emits on the pool; unhandled, that would crash the
  // process (seen with Neon through a proxy). The next query reconnects.
  pool.on("error", (error) => console.error(`[db] idle connection error: ${error.message}`));
  const executor = poolExecutor(pool, driver === "pg" && options.preparedStatements === true);
  if (driver !== "neon") return withUnavailableErrors(executor);
  // On Neon a single statement goes over HTTP — one round trip, no WebSocket to open on a cold
  // start; multi-statement scripts and transactions keep the WebSocket pool.
  const http = await neonHttpQuery(url, options, timeouts);
  return withUnavailableErrors({ ...executor, query: http });
}

async function neonHttpQuery(url: string, options: ConnectOptions, timeouts: DatabaseTimeouts): Promise<SqlQueryable["query"]> {
  const { neon, neonConfig } = await import("@neondatabase/serverless");
  if (options.neonHttpEndpoint) {
    const endpoint = options.neonHttpEndpoint;
    neonConfig.fetchEndpoint = () => endpoint;
  }
  const sql = neon(url);
  // One fetch is the connection and the statement together; its signal bounds both.
  const limitMs = timeouts.statementMs > 0 ? timeouts.connectMs + timeouts.statementMs : 0;
  return async <Row>(text: string, params: readonly unknown[] = []) => {
    const fetchOptions = limitMs > 0 ? { signal: AbortSignal.timeout(limitMs) } : {};
    const rows = await sql.query(text, [...params], { fetchOptions });
    return { rows: rows as Row[] };
  };
}

async function pgPool(url: string, options: ConnectOptions, timeouts: DatabaseTimeouts): Promise<PoolLike> {
  const { default: pg } = await import("pg");
  return new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 5,
    connectionTimeoutMillis: timeouts.connectMs,
    ...(timeouts.statementMs > 0 && {
      statement_timeout: timeouts.statementMs,
      query_timeout: timeouts.statementMs + clientBackstopMs,
    }),
    // Lets build scripts and tests exit without an explicit close.
    allowExitOnIdle: true,
  });
}

async function neonPool(url: string, options: ConnectOptions, timeouts: DatabaseTimeouts): Promise<PoolLike> {
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
  return new Pool({
    connectionString: url,
    max: options.maxConnections ?? 5,
    connectionTimeoutMillis: timeouts.connectMs,
    // Client-side only: a `statement_timeout` startup parameter may be refused by Neon's pooler.
    ...(timeouts.statementMs > 0 && { query_timeout: timeouts.statementMs }),
  });
}

/** Most statements one connection prepares: SQL built with values inside would otherwise fill the session. */
const maxPreparedPerConnection = 1000;

/**
 * A statement's name on one connection: its text's hash behind the connection's own prefix (the
 * local emulation serves every connection from one Postgres session, where a name a closed
 * connection prepared is still taken), or undefined once the connection has prepared its most.
 */
const connectionStatements = new WeakMap<object, { prefix: string; names: Map<string, string> }>();
function statementName(connection: object, sql: string): string | undefined {
  let statements = connectionStatements.get(connection);
  if (!statements) {
    statements = { prefix: `nf_${randomBytes(6).toString("hex")}_`, names: new Map() };
    connectionStatements.set(connection, statements);
  }
  let name = statements.names.get(sql);
  if (!name && statements.names.size < maxPreparedPerConnection) {
    name = statements.prefix + createHash("sha256").update(sql).digest("base64url").slice(0, 32);
    statements.names.set(sql, name);
  }
  return name;
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

/** Statements with parameters prepared once per connection, on a client of its own (see `preparedStatements`). */
function preparedQueryable(client: Pick<PoolClientLike, "query">): SqlQueryable {
  return {
    ...queryable(client),
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const name = params.length > 0 ? statementName(client, sql) : undefined;
      const result = await (name ? client.query({ name, text: sql, values: [...params] }) : client.query(sql, [...params]));
      return { rows: result.rows as Row[] };
    },
  };
}

function onPool(pool: PoolLike, prepared: boolean): SqlQueryable {
  if (!prepared) return queryable(pool);
  return {
    ...queryable(pool),
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const client = await pool.connect();
      try {
        const result = await preparedQueryable(client).query<Row>(sql, params);
        client.release();
        return result;
      } catch (error) {
        client.release();
        throw error;
      }
    },
  };
}

function poolExecutor(pool: PoolLike, prepared: boolean): SqlExecutor {
  return {
    ...onPool(pool, prepared),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(prepared ? preparedQueryable(client) : queryable(client));
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
