import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks`. */
  url: string;
  received: ReceivedWebhook[];
  /** What the next requests are answered (default 200 "ok"); `hang` never answers (a dead endpoint). */
  answer: { status: number; body?: string; hang?: boolean };
  /** Resolves once `count` requests arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * A local webhook endpoint for tests (node:http on 127.0.0.1): keeps what it receives (at most 1000
 * requests, bodies at most 1 MB) and answers as told. Bounded: `close` ends every open socket.
 * `port`: listen there (an endpoint coming back up at its address); by default any free port.
 */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: (() => void)[] = [];
  const receiver = {
    url: "",
    received,
    answer: { status: 200, body: "ok" } as WebhookReceiver["answer"],
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= 1024 * 1024) chunks.push(chunk);
    });
    request.on("end", () => {
      if (received.length < 1000) received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      for (const wake of waiters.splice(0)) wake();
      const { status, body = "", hang } = receiver.answer;
      if (hang) return;
      response.writeHead(status, { "content-type": "text/plain" }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/hooks`;
  return {
    ...receiver,
    get answer() {
      return receiver.answer;
    },
    set answer(value) {
      receiver.answer = value;
    },
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${String(received.length)} of ${String(count)} webhooks`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
