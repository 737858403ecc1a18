import { createConnection } from "node:net";
import { WebSocketServer, createWebSocketStream } from "ws";

/**
 * A WebSocket-to-TCP proxy like Neon's: each WebSocket carries one Postgres connection to the
 * `address` query parameter. Lets the Neon serverless driver talk to a plain PostgreSQL.
 */
export async function startNeonWsProxy(): Promise<{ address: string; close(): Promise<void> }> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  server.on("connection", (socket, request) => {
    const target = new URL(request.url ?? "/", "http://proxy").searchParams.get("address") ?? "";
    const [host = "127.0.0.1", port = "5432"] = target.split(":");
    const tcp = createConnection({ host, port: Number(port) });
    const ws = createWebSocketStream(socket);
    ws.pipe(tcp).pipe(ws);
    const end = () => {
      tcp.destroy();
      socket.terminate();
    };
    tcp.on("error", end);
    ws.on("error", end);
  });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${String(port)}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
