import { createHash, randomBytes } from "node:crypto";
import type { SqlQueryable } from "../db/sql-executor.ts";

/** A reader stays signed in 30 days from signing in (decision 0073). */
export const readerSessionMs = 30 * 24 * 60 * 60 * 1000;

export interface ReaderSessionDeps {
  db: SqlQueryable;
  now: () => Date;
}

export interface ReaderSession {
  subscriberId: number;
  expiresAt: Date;
}

/** Only this hash is stored: a leaked row (or backup) can't be turned back into a cookie. */
function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Deletes up to 20 sessions that are over, with each sign-in, so the table holds live sessions only. */
const pruneSessions = `pruned AS (
  DELETE FROM reader_sessions WHERE token_hash IN (
    SELECT token_hash FROM reader_sessions WHERE expires_at <= $2 LIMIT 20 FOR UPDATE SKIP LOCKED))`;

/** Starts a reader's session; the token (256 random bits) goes into the reader cookie and nowhere else. */
export async function createReaderSession(deps: ReaderSessionDeps, subscriberId: number): Promise<{ token: string; session: ReaderSession }> {
  const token = randomBytes(32).toString("base64url");
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + readerSessionMs);
  await deps.db.query(
    `WITH ${pruneSessions}
     INSERT INTO reader_sessions (token_hash, subscriber_id, created_at, last_seen_at, expires_at) VALUES ($1, $3, $2, $2, $4)`,
    [hashToken(token), now, subscriberId, expiresAt],
  );
  return { token, session: { subscriberId, expiresAt } };
}

/** The live session of a reader cookie's token (marked used), or null. An admin cookie's token is never here. */
export async function findReaderSession(deps: ReaderSessionDeps, token: string | undefined): Promise<ReaderSession | null> {
  if (!token) return null;
  const { rows } = await deps.db.query<{ subscriber_id: number; expires_at: Date }>(
    `UPDATE reader_sessions SET last_seen_at = $2 WHERE token_hash = $1 AND expires_at > $2 RETURNING subscriber_id, expires_at`,
    [hashToken(token), deps.now()],
  );
  const row = rows[0];
  return row ? { subscriberId: row.subscriber_id, expiresAt: row.expires_at } : null;
}

/** Signs one browser out (its cookie's token); an unknown token is ignored. */
export async function endReaderSession(deps: Pick<ReaderSessionDeps, "db">, token: string | undefined): Promise<void> {
  if (!token) return;
  await deps.db.query("DELETE FROM reader_sessions WHERE token_hash = $1", [hashToken(token)]);
}

/** Signs a reader out everywhere (the owner's button, or an erase); answers how many sessions ended. */
export async function endReaderSessions(deps: Pick<ReaderSessionDeps, "db">, subscriberId: number): Promise<number> {
  const { rows } = await deps.db.query<{ n: number }>(
    "WITH gone AS (DELETE FROM reader_sessions WHERE subscriber_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone",
    [subscriberId],
  );
  return rows[0]?.n ?? 0;
}
