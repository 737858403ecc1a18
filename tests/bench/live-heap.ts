/**
 * The live JavaScript heap of another Node process: what is still reachable after a full garbage
 * collection, read over the inspector protocol. Resident memory alone cannot say whether a process
 * holds on to what it processed (V8 lets garbage pile up while memory is plentiful); the live heap
 * can. The process must be started with `--inspect=127.0.0.1:<port>` (allowed in NODE_OPTIONS).
 */

export interface LiveHeapProbe {
  /** Collects all garbage, then answers the bytes still in use on the JavaScript heap. */
  liveHeapBytes(): Promise<number>;
  close(): void;
}

export function inspectOption(port: number): string {
  return `--inspect=127.0.0.1:${String(port)}`;
}

export async function connectLiveHeapProbe(port: number): Promise<LiveHeapProbe> {
  const targets = (await (await fetch(`http://127.0.0.1:${String(port)}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const target = targets[0];
  if (!target) throw new Error(`no inspector target on port ${String(port)}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error("the inspector refused the connection")), { once: true });
  });
  let nextId = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const call = (method: string) =>
    new Promise<unknown>((resolve) => {
      nextId += 1;
      pending.set(nextId, resolve);
      socket.send(JSON.stringify({ id: nextId, method }));
    });
  return {
    async liveHeapBytes() {
      await call("HeapProfiler.collectGarbage");
      const usage = (await call("Runtime.getHeapUsage")) as { usedSize: number };
      return usage.usedSize;
    },
    close: () => socket.close(),
  };
}
