import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectDatabase, type ConnectOptions } from "../../src/adapters/connect-database.ts";
import { createApiHandler } from "../../src/api/api-handler.ts";
import { apiRoutes } from "../../src/api/routes.ts";
import type { SqlExecutor } from "../../src/core/db/sql-executor.ts";
import { DatabaseUnavailableError } from "../../src/core/errors.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/** Short enough for a quick test, long enough that a loaded machine still connects to itself. */
const timeouts = { connectMs: 300, statementMs: 300 };
/** Far under the production figures (5 s, 15 s): an answer by then came from the injected timeouts. */
const answeredWithinMs = 4_000;

interface SilentServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A TCP server on 127.0.0.1 that accepts connections and then never says a word; with `handshake`
 * it first lets a Postgres client sign in (AuthenticationOk, ReadyForQuery) and then never answers
 * its queries, as a database stuck mid-statement would.
 */
async function startSilentServer({ handshake = false } = {}): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    if (handshake) {
      socket.once("data", () => {
        const authenticationOk = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]);
        const readyForQuery = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
        socket.write(Buffer.concat([authenticationOk, readyForQuery]));
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let app: TestApp;
let silent: SilentServer;
let stuck: SilentServer;
beforeAll(async () => {
  app = await createTestApp();
  silent = await startSilentServer();
  stuck = await startSilentServer({ handshake: true });
});
afterAll(async () => {
  await app.close();
  await silent.close();
  await stuck.close();
});

/** The real app over a database opened with `options`: an API call's status, Retry-After and how long it took. */
async function callOver(url: string, options: ConnectOptions): Promise<{ status: number; retryAfter: string | null; ms: number }> {
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const db = await connectDatabase(url, { ...options, timeouts });
  try {
    const handler = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve({ ...app.deps, db }) });
    const started = performance.now();
    const response = await handler(new Request("http://localhost/api/site-settings"), { ip: "127.0.0.1" });
    const ms = performance.now() - started;
    expect(String(logged.mock.calls[0]?.[0])).toMatch(/database unavailable/);
    return { status: response.status, retryAfter: response.headers.get("retry-after"), ms };
  } finally {
    logged.mockRestore();
    await db.close().catch(() => undefined);
  }
}

async function failureOf(db: SqlExecutor, call: (db: SqlExecutor) => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await call(db).catch((caught: unknown) => caught);
  return { error, ms: performance.now() - started };
}

describe("issue 26 finding 3: a database that never answers makes a 503 with Retry-After, not a hang", { timeout: 15_000 }, () => {
  it("pg: a server that accepts the connection and never answers", async () => {
    const answer = await callOver(`postgres://postgres@127.0.0.1:${String(silent.port)}/none`, { driver: "pg" });
    expect(answer).toMatchObject({ status: 503, retryAfter: "5" });
    expect(answer.ms).toBeLessThan(answeredWithinMs);
  });

  it("pg: a server that signs the client in, then never answers its statement", async () => {
    const answer = await callOver(`postgres://postgres@127.0.0.1:${String(stuck.port)}/none`, { driver: "pg" });
    expect(answer).toMatchObject({ status: 503, retryAfter: "5" });
    expect(answer.ms).toBeLessThan(answeredWithinMs);
  });

  it("Neon over HTTP: an endpoint that accepts the connection and never answers", async () => {
    const answer = await callOver("postgres://postgres@ep-test.neon.tech/none", {
      neonHttpEndpoint: `http://127.0.0.1:${String(silent.port)}/sql`,
    });
    expect(answer).toMatchObject({ status: 503, retryAfter: "5" });
    expect(answer.ms).toBeLessThan(answeredWithinMs);
  });

  const serverUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!serverUrl)("pg on PostgreSQL: the server stops a statement over its time, and the connection still serves the next", async () => {
    const db = await connectDatabase(serverUrl ?? "", { driver: "pg", maxConnections: 1, timeouts });
    try {
      const { error, ms } = await failureOf(db, (target) => target.query("SELECT pg_sleep(10)"));
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect((error as Error).cause).toMatchObject({ code: "57014" });
      expect(ms).toBeLessThan(answeredWithinMs);
      expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });

  it("Neon over its WebSocket (transactions): a proxy that accepts the connection and never answers", async () => {
    const db = await connectDatabase("postgres://postgres@ep-test.neon.tech/none", {
      neonWsProxy: `127.0.0.1:${String(silent.port)}/v2`,
      timeouts,
    });
    try {
      const { error, ms } = await failureOf(db, (target) => target.transaction((tx) => tx.query("SELECT 1")));
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect(ms).toBeLessThan(answeredWithinMs);
    } finally {
      await db.close().catch(() => undefined);
    }
  });
});
