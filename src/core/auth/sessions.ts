import { createHash, randomBytes } from "node:crypto";
import type { SqlQueryable } from "../db/sql-executor.ts";

/** A session ends after 12 hours without use, and 7 days after login whatever happens. */
export const sessionIdleMs = 12 * 60 * 60 * 1000;
export const sessionMaxMs = 7 * 24 * 60 * 60 * 1000;

export interface SessionDeps {
  db: SqlQueryable;
  now: () => Date;
}

export interface Session {
  createdAt: Date;
  expiresAt: Date;
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
  await deps.db.query("INSERT INTO admin_sessions (token_hash, created_at, last_seen_at, expires_at) VALUES ($1, $2, $2, $3)", [
    hashToken(token),
    createdAt,
    expiresAt,
  ]);
  return { token, session: { createdAt, expiresAt } };
}

/** The live session for a cookie token (and marks it used), or null when unknown or expired. */
export async function findSession(deps: SessionDeps, token: string | undefined): Promise<Session | null> {
  if (!token) return null;
  const now = deps.now();
  const { rows } = await deps.db.query<{ created_at: Date; expires_at: Date }>(
    `UPDATE admin_sessions SET last_seen_at = $2
      WHERE token_hash = $1 AND expires_at > $2 AND last_seen_at > $3
      RETURNING created_at, expires_at`,
    [hashToken(token), now, new Date(now.getTime() - sessionIdleMs)],
  );
  const row = rows[0];
  return row ? { createdAt: row.created_at, expiresAt: row.expires_at } : null;
}

/** Ends a session on the server (logout); unknown tokens are ignored. */
export async function deleteSession(deps: SessionDeps, token: string | undefined): Promise<void> {
  if (!token) return;
  await deps.db.query("DELETE FROM admin_sessions WHERE token_hash = $1", [hashToken(token)]);
}
