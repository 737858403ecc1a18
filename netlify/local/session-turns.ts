import type { Socket } from "node:net";

/** PGlite as the emulation drives it: every client message goes through `execProtocolRaw`. */
export interface RawProtocolDatabase {
  execProtocolRaw(message: Uint8Array, options?: { syncToFs?: boolean }): Promise<Uint8Array>;
  execProtocol(message: Uint8Array, options?: { syncToFs?: boolean; throwOnError?: boolean }): Promise<{ data: Uint8Array }>;
}

/** A simple-protocol query message (`Q`), as a client sends it. */
export function simpleQuery(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`);
  const message = Buffer.alloc(5 + text.length);
  message.write("Q");
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return new Uint8Array(message);
}

/** Rolls back whatever the session holds open. */
const rollback = simpleQuery("ROLLBACK");

/**
 * The transaction status of the last ReadyForQuery (`Z`) in an answer: "I" idle, "T" in a
 * transaction, "E" in a failed one; undefined when the answer has none (mid extended query).
 */
export function readyStatus(answer: Uint8Array): "I" | "T" | "E" | undefined {
  const view = new DataView(answer.buffer, answer.byteOffset, answer.byteLength);
  let status: "I" | "T" | "E" | undefined;
  for (let offset = 0; offset + 5 <= answer.byteLength; offset += 1 + view.getInt32(offset + 1)) {
    if (answer[offset] === 0x5a && offset + 6 <= answer.byteLength) status = String.fromCharCode(answer[offset + 5] ?? 0) as "I" | "T" | "E";
  }
  return status;
}

/**
 * One Postgres session shared by many connections, taken in turns: a connection holds the session
 * from its first message until Postgres is ready for a query outside a transaction, and every other
 * connection's messages wait for that. Real Postgres gives each connection a session of its own;
 * the emulation gives them all one, so without turns a statement from one connection ran inside
 * another's open transaction (rolled back with it, or blind to it) and extended-query messages of
 * two connections interleaved (docs/decisions/0092-local-database-turns.md).
 */
export function createSessionTurns(db: RawProtocolDatabase) {
  let holder: object | undefined;
  const queue: { who: object; go: () => void }[] = [];

  const take = async (who: object) => {
    if (holder === who) return;
    if (holder === undefined) {
      holder = who;
      return;
    }
    await new Promise<void>((go) => queue.push({ who, go }));
  };
  const give = (who: object) => {
    if (holder !== who) return;
    const next = queue.shift();
    holder = next?.who;
    next?.go();
  };

  /** The turn-taking face of the session for one connection. */
  function connection() {
    const who = {};
    let status: "I" | "T" | "E" = "I";
    let closed = false;
    let running = false;

    /** A connection that went away with a transaction open leaves it rolled back, as Postgres does. */
    const leave = async () => {
      if (holder !== who) return;
      try {
        if (status !== "I") await db.execProtocolRaw(rollback);
      } finally {
        status = "I";
        give(who);
      }
    };

    return {
      async execProtocolRaw(message: Uint8Array, options?: { syncToFs?: boolean }): Promise<Uint8Array> {
        await take(who);
        running = true;
        try {
          const answer = await db.execProtocolRaw(message, options);
          const ready = readyStatus(answer);
          status = ready ?? status;
          if (ready === "I") give(who);
          return answer;
        } catch (error) {
          give(who);
          throw error;
        } finally {
          running = false;
          if (closed) await leave();
        }
      },
      /** The socket closed: its turn ends now, or when its running message is answered. */
      async close(): Promise<void> {
        closed = true;
        const waiting = queue.findIndex((entry) => entry.who === who);
        if (waiting >= 0) queue.splice(waiting, 1);
        if (!running) await leave();
      },
    };
  }

  return { connection, holding: () => holder !== undefined, waiting: () => queue.length };
}

/** Gives every connection the emulation accepts its own turn at the shared session. */
export function takeTurns(emulation: {
  db?: RawProtocolDatabase;
  handleConnection?: (socket: Socket) => void;
}): ReturnType<typeof createSessionTurns> | undefined {
  const shared = emulation.db;
  const handle = emulation.handleConnection?.bind(emulation);
  if (!shared || !handle) return undefined;
  const turns = createSessionTurns(shared);
  emulation.handleConnection = (socket) => {
    const turn = turns.connection();
    socket.once("close", () => void turn.close());
    // The emulation reads `this.db` once, synchronously, when a socket connects, and sends that
    // socket's messages to it: for that moment it is this connection's turn-taking face.
    emulation.db = { ...turn, execProtocol: shared.execProtocol.bind(shared) };
    try {
      handle(socket);
    } finally {
      emulation.db = shared;
    }
  };
  return turns;
}
