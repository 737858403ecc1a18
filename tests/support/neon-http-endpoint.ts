import { createServer } from "node:http";
import pg from "pg";

/**
 * A local stand-in for Neon's HTTP query endpoint (`POST /sql`, as its serverless driver speaks
 * it): runs each query on the PostgreSQL named in the `Neon-Connection-String` header and answers
 * raw text values with their type ids, which the driver parses as it does against Neon.
 *
 * Each query runs on its own (autocommit) over a kept pool of connections, as Neon's endpoint does
 * behind its proxy: a new connection a query made PostgreSQL start a backend for every statement,
 * and the suites on this driver took 3.3× as long as the same ones over `pg` (138 s against 42 s
 * of test time in a full run, issue 38 point 6).
 */
export async function startNeonHttpEndpoint(): Promise<{ url: string; queries: () => number; close(): Promise<void> }> {
  const rawText = { getTypeParser: () => (value: string) => value };
  const pools = new Map<string, pg.Pool>();
  const poolFor = (connectionString: string) => {
    let pool = pools.get(connectionString);
    if (!pool) {
      pool = new pg.Pool({ connectionString, max: 16 });
      // An idle connection cut by the server (a test stopping it, a forced drop) is the next query's problem, not the process's.
      pool.on("error", () => undefined);
      pools.set(connectionString, pool);
    }
    return pool;
  };
  let queries = 0;
  const server = createServer((req, res) => {
    queries += 1;
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      void (async () => {
        try {
          const { query, params } = JSON.parse(body) as { query: string; params: unknown[] };
          const pool = poolFor(String(req.headers["neon-connection-string"]));
          const result = await pool.query({ text: query, values: params, rowMode: "array", types: rawText });
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              command: result.command,
              rowCount: result.rowCount,
              fields: result.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
              rows: result.rows,
            }),
          );
        } catch (error) {
          res.writeHead(400, { "content-type": "application/json" });
          const { message, code } = error as { message: string; code?: string };
          res.end(JSON.stringify({ message, code }));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${String(port)}/sql`,
    queries: () => queries,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...pools.values()].map((pool) => pool.end()));
    },
  };
}
