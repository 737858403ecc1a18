import { Worker } from "node:worker_threads";

export interface DatabaseThreadSettings {
  /** The emulation's data folder (`.netlify/db` under the site's state). */
  directory: string;
}

export type DatabaseThreadReply = { kind: "ready"; url: string } | { kind: "failed"; message: string } | { kind: "stopped" };

export interface DatabaseThread {
  /** `postgres://postgres@localhost:<port>/postgres`, as Netlify's emulation names itself. */
  url: string;
  /** Closes the database (its data folder flushed and released), then the thread. */
  stop(): Promise<void>;
}

/**
 * Starts Netlify's local database emulation in a worker thread (database-thread.ts) and answers
 * once it listens. The main thread then reaches it over loopback like any Postgres.
 */
export function startDatabaseThread(settings: DatabaseThreadSettings): Promise<DatabaseThread> {
  const worker = new Worker(new URL("./database-thread.ts", import.meta.url), { workerData: settings });
  return new Promise((resolve, reject) => {
    const failedToStart = (error: Error) => reject(error);
    worker.once("error", failedToStart);
    worker.once("message", (reply: DatabaseThreadReply) => {
      worker.off("error", failedToStart);
      worker.on("error", (error) => console.error("[db] The database thread failed:", error));
      if (reply.kind !== "ready") {
        void worker.terminate();
        reject(new Error(reply.kind === "failed" ? reply.message : "the database thread stopped before it started"));
        return;
      }
      resolve({
        url: reply.url,
        stop: () =>
          new Promise<void>((stopped) => {
            worker.once("exit", () => stopped());
            worker.on("message", (next: DatabaseThreadReply) => {
              if (next.kind === "stopped") void worker.terminate();
            });
            worker.postMessage({ kind: "stop" });
          }),
      });
    });
  });
}
