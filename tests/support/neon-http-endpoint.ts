import { createServer } from "node:http";
import pg from "pg";

/**
 * A local stand-in for Neon's HTTP query endpoint (`POST /sql`, as its serverless driver speaks
 * it): runs each query on the PostgreSQL named in the `Neon-Connection-String` header and answers
 * raw text values with their type ids, which the driver parses as it does against Neon.
 */
export async function startNeonHttpEndpoint(): Promise<{ url: string; queries: () => number; close(): Promise<void> }> {
  const rawText = { getTypeParser: () => (value: string) => value };
  let queries = 0;
  const server = createServer((req, res) => {
    queries += 1;
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      void (async () => {
        const client = new pg.Client({ connectionString: String(req.headers["neon-connection-string"]) });
        try {
          const { query, params } = JSON.parse(body) as { query: string; params: unknown[] };
          await client.connect();
          const result = await client.query({ text: query, values: params, rowMode: "array", types: rawText });
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
        } finally {
          await client.end().catch(() => undefined);
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${String(port)}/sql`,
    queries: () => queries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
