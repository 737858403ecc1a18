import type { SqlQueryable } from "../db/sql-executor.ts";

/** A challenge is good for 5 minutes, and once. */
export const challengeTtlMs = 5 * 60 * 1000;

export type ChallengePurpose = "registration" | "login";

interface ChallengeDeps {
  db: SqlQueryable;
  now: () => Date;
}

/**
 * Stores a challenge the library made (random, base64url) until it is used or expires. Stored on
 * the server because function instances share no memory; expired ones are deleted as new ones come.
 */
export async function storeChallenge(deps: ChallengeDeps, challenge: string, purpose: ChallengePurpose): Promise<void> {
  const now = deps.now();
  await deps.db.query(
    `WITH expired AS (
       DELETE FROM passkey_challenges WHERE challenge IN (
         SELECT challenge FROM passkey_challenges WHERE expires_at <= $4 LIMIT 100 FOR UPDATE SKIP LOCKED))
     INSERT INTO passkey_challenges (challenge, purpose, expires_at) VALUES ($1, $2, $3)`,
    [challenge, purpose, new Date(now.getTime() + challengeTtlMs), now],
  );
}

/**
 * Uses a challenge up: true when it was issued for `purpose` and has not expired. One statement
 * deletes it, so of two answers signing the same challenge only one gets `true`.
 */
export async function consumeChallenge(deps: ChallengeDeps, challenge: string, purpose: ChallengePurpose): Promise<boolean> {
  const { rows } = await deps.db.query<{ expires_at: Date }>(
    "DELETE FROM passkey_challenges WHERE challenge = $1 AND purpose = $2 RETURNING expires_at",
    [challenge, purpose],
  );
  const row = rows[0];
  return row !== undefined && row.expires_at.getTime() > deps.now().getTime();
}
