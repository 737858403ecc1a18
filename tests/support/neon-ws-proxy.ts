import { createConnection } from "node:net";
import { WebSocketServer, createWebSocketStream, type WebSocket } from "ws";

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
    // A pool's end() resolves before its WebSockets have closed: cutting them then reaches the
    // driver as an idle-connection error. Let them close on their own; cut only what lingers.
    close: async () => {
      await Promise.all([...server.clients].map((client) => closed(client, 2_000)));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves once `socket` has closed, terminating it if it is still open after `graceMs`. */
function closed(socket: WebSocket, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => socket.terminate(), graceMs);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
