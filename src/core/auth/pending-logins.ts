import { createHash, randomBytes } from "node:crypto";
import type { SqlQueryable } from "../db/sql-executor.ts";

/** A password step waits 5 minutes for its second step. */
export const pendingLoginTtlMs = 5 * 60 * 1000;

interface PendingDeps {
  db: SqlQueryable;
  now: () => Date;
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Records a right password whose login still needs its second step; the token goes in a cookie. */
export async function startPendingLogin(deps: PendingDeps): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = deps.now();
  await deps.db.query(
    `WITH expired AS (
       DELETE FROM pending_logins WHERE token_hash IN (
         SELECT token_hash FROM pending_logins WHERE expires_at <= $3 LIMIT 100 FOR UPDATE SKIP LOCKED))
     INSERT INTO pending_logins (token_hash, expires_at) VALUES ($1, $2)`,
    [hashToken(token), new Date(now.getTime() + pendingLoginTtlMs), now],
  );
  return token;
}

/** Whether the token names a password step that is still waiting. */
export async function pendingLoginIsLive(deps: PendingDeps, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const { rows } = await deps.db.query("SELECT 1 FROM pending_logins WHERE token_hash = $1 AND expires_at > $2", [hashToken(token), deps.now()]);
  return rows.length > 0;
}

/** Ends a password step (its second step is done, or it is abandoned). */
export async function endPendingLogin(deps: Pick<PendingDeps, "db">, token: string | undefined): Promise<void> {
  if (!token) return;
  await deps.db.query("DELETE FROM pending_logins WHERE token_hash = $1", [hashToken(token)]);
}
