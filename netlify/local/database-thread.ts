/**
 * `npm start`'s database — Netlify's local emulation (Postgres compiled to WebAssembly, served over
 * the Postgres protocol on loopback) — in a worker thread, so its statements run on a core of their
 * own instead of between the answers (docs/decisions/0043-signups-under-load.md). It posts the
 * connection URL once listening, and stops cleanly (the data folder closed) when asked.
 */
import { parentPort, workerData } from "node:worker_threads";
import { NetlifyDB } from "@netlify/database-dev";
import { fixLocalDatabase, type LocalDatabaseEmulation } from "./local-database-fixes.ts";
import type { DatabaseThreadReply, DatabaseThreadSettings } from "./threaded-database.ts";

const port = parentPort;
if (!port) throw new Error("database-thread.ts runs as a worker thread");
const settings = workerData as DatabaseThreadSettings;
const database = new NetlifyDB({ directory: settings.directory, logger: (...parts: unknown[]) => console.error("[db]", ...parts) });

try {
  const url = await database.start();
  fixLocalDatabase(database as unknown as LocalDatabaseEmulation);
  port.postMessage({ kind: "ready", url } satisfies DatabaseThreadReply);
} catch (error) {
  port.postMessage({ kind: "failed", message: error instanceof Error ? error.message : String(error) } satisfies DatabaseThreadReply);
}

port.on("message", (message: { kind: "stop" }) => {
  if (message.kind !== "stop") return;
  void database.stop().finally(() => {
    port.postMessage({ kind: "stopped" } satisfies DatabaseThreadReply);
    port.close();
  });
});
