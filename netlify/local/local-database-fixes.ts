import type { Server as NetServer, Socket } from "node:net";
import { type RawProtocolDatabase, takeTurns } from "./session-turns.ts";

/** The parts of NetlifyDev's Postgres emulation (`@netlify/database-dev`'s NetlifyDB) these fixes touch. */
export interface LocalDatabaseEmulation {
  server?: NetServer;
  db?: RawProtocolDatabase;
  /** Serves one client socket; reads `db` once, when the socket connects. */
  handleConnection?(socket: Socket): void;
}

/**
 * Three fixes for the emulation `npm start` runs, each a no-op once the emulation does it itself:
 * - Nagle's algorithm off on its sockets (docs/decisions/0001-nagle-off-local-database-socket.md);
 * - the answers it parses are let go (docs/decisions/0017-local-database-parsed-answers.md): its
 *   PGlite keeps every message Postgres sends for the socket's clients, all session long, because
 *   only `execProtocol` clears that list and the emulation calls `execProtocolRaw`;
 * - its connections take turns at its one session, a transaction at a time
 *   (docs/decisions/0092-local-database-turns.md).
 */
export function fixLocalDatabase(emulation: LocalDatabaseEmulation | undefined): void {
  if (emulation?.server) answerWithoutDelay(emulation.server);
  if (emulation?.db) releaseParsedAnswers(emulation.db);
  if (emulation) takeTurns(emulation);
}

/** Without it, every extended-protocol query waits for the client's delayed ACK (about 40 ms). */
export function answerWithoutDelay(server: NetServer): void {
  server.on("connection", (socket) => {
    socket.setNoDelay(true);
  });
}

/**
 * Routes the emulation's raw calls through `execProtocol`, which clears the parsed messages before
 * and after each call and answers the same raw bytes. Errors stay in those bytes for the client
 * (`throwOnError: false`), exactly as a raw call leaves them. `execProtocol` itself calls
 * `execProtocolRaw` synchronously, before its first await: that inner call goes to the original.
 */
export function releaseParsedAnswers(db: RawProtocolDatabase): void {
  const raw = db.execProtocolRaw.bind(db);
  let inner = false;
  db.execProtocolRaw = (message, options) => {
    if (inner) return raw(message, options);
    inner = true;
    try {
      return db.execProtocol(message, { ...options, throwOnError: false }).then((result) => result.data);
    } finally {
      inner = false;
    }
  };
}
