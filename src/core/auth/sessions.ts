import { createHash, randomBytes } from "node:crypto";
import type { SqlQueryable } from "../db/sql-executor.ts";
import type { AdminCredentials } from "./admin-credentials.ts";

/** A session ends after 12 hours without use, and 7 days after login whatever happens. */
export const sessionIdleMs = 12 * 60 * 60 * 1000;
export const sessionMaxMs = 7 * 24 * 60 * 60 * 1000;

export interface SessionDeps {
  db: SqlQueryable;
  now: () => Date;
  /** Sessions started under other credentials (before a password change) are over. */
  admin: Pick<AdminCredentials, "fingerprint">;
}

/**
 * A CTE deleting up to 20 sessions that are over (expired, idle, or of other credentials; `$2` now,
 * `$3` the idle limit, `$4` the fingerprint), run with each session check and login so the table
 * holds only live sessions. Never the live one the same statement touches: the conditions exclude it.
 */
const pruneSessions = `pruned AS (
  DELETE FROM admin_sessions WHERE token_hash IN (
    SELECT token_hash FROM admin_sessions
     WHERE expires_at <= $2 OR last_seen_at <= $3 OR credentials_fingerprint <> $4
     LIMIT 20 FOR UPDATE SKIP LOCKED))`;

export interface Session {
  createdAt: Date;
  expiresAt: Date;
  /** When the owner last proved who they are in this session: its login, or a later re-authentication. */
  signedInAt: Date;
}

/** Only this hash is stored: a leaked database row can't be turned back into a cookie. */
function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Starts a session; the returned token (256 random bits) goes into the cookie and nowhere else. */
export async function createSession(deps: SessionDeps): Promise<{ token: string; session: Session }> {
  const token = randomBytes(32).toString("base64url");
  const createdAt = deps.now();
  const expiresAt = new Date(createdAt.getTime() + sessionMaxMs);
  await deps.db.query(
    `WITH ${pruneSessions}
     INSERT INTO admin_sessions (token_hash, created_at, last_seen_at, expires_at, credentials_fingerprint, signed_in_at)
     VALUES ($1, $2, $2, $5, $4, $2)`,
    [hashToken(token), createdAt, new Date(createdAt.getTime() - sessionIdleMs), await deps.admin.fingerprint(), expiresAt],
  );
  return { token, session: { createdAt, expiresAt, signedInAt: createdAt } };
}

/** The live session for a cookie token (and marks it used), or null when unknown, expired or of other credentials. */
export async function findSession(deps: SessionDeps, token: string | undefined): Promise<Session | null> {
  if (!token) return null;
  const now = deps.now();
  const { rows } = await deps.db.query<{ created_at: Date; expires_at: Date; signed_in_at: Date }>(
    `WITH ${pruneSessions}
     UPDATE admin_sessions SET last_seen_at = $2
      WHERE token_hash = $1 AND expires_at > $2 AND last_seen_at > $3 AND credentials_fingerprint = $4
      RETURNING created_at, expires_at, signed_in_at`,
    [hashToken(token), now, new Date(now.getTime() - sessionIdleMs), await deps.admin.fingerprint()],
  );
  const row = rows[0];
  return row ? { createdAt: row.created_at, expiresAt: row.expires_at, signedInAt: row.signed_in_at } : null;
}

/** Records a fresh proof of identity (a password or passkey) in a live session; returns its time. */
export async function markSessionSignedIn(deps: Pick<SessionDeps, "db" | "now">, token: string): Promise<Date> {
  const now = deps.now();
  await deps.db.query("UPDATE admin_sessions SET signed_in_at = $2 WHERE token_hash = $1", [hashToken(token), now]);
  return now;
}

/** Ends every session but this one (a password change: whoever knew the old one is signed out). */
export async function endOtherSessions(deps: Pick<SessionDeps, "db">, token: string): Promise<void> {
  await deps.db.query("DELETE FROM admin_sessions WHERE token_hash <> $1", [hashToken(token)]);
}

/** Ends a session on the server (logout); unknown tokens are ignored. */
export async function deleteSession(deps: Pick<SessionDeps, "db">, token: string | undefined): Promise<void> {
  if (!token) return;
  await deps.db.query("DELETE FROM admin_sessions WHERE token_hash = $1", [hashToken(token)]);
}
