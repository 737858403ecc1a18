import { createHash, randomBytes } from "node:crypto";
import { clientKey } from "../client-key.ts";
import type { SqlQueryable } from "../db/sql-executor.ts";
import type { Day } from "./stats-days.ts";

/** The salt each database holds for today, kept by this process once read (a day's salt never changes). */
const known = new WeakMap<SqlQueryable, { day: Day; salt: Buffer }>();

/**
 * Today's salt: made at random by the first page view of the day, and every earlier day's deleted
 * in the same statement, so yesterday's hashes can never be made again. `isNewDay` says this
 * process met the day for the first time (the moment to roll up the days before it).
 */
export async function dailySalt(db: SqlQueryable, day: Day): Promise<{ salt: Buffer; isNewDay: boolean }> {
  const cached = known.get(db);
  if (cached?.day === day) return { salt: cached.salt, isNewDay: false };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const { rows } = await db.query<{ salt: Buffer | Uint8Array }>(
      `WITH forgotten AS (DELETE FROM stats_salts WHERE day < $1::date),
            made AS (INSERT INTO stats_salts (day, salt) VALUES ($1::date, $2) ON CONFLICT (day) DO NOTHING RETURNING salt)
       SELECT salt FROM made UNION ALL SELECT salt FROM stats_salts WHERE day = $1::date`,
      [day, randomBytes(32)],
    );
    // Empty only when another request made the salt in the same instant: its row is readable now.
    const row = rows[0];
    if (row) {
      const salt = Buffer.from(row.salt);
      known.set(db, { day, salt });
      return { salt, isNewDay: true };
    }
  }
  throw new Error("stats: could not read today's salt");
}

/** Forgets what this process knows of `db`'s salt (tests that delete the row behind its back). */
export function forgetSalt(db: SqlQueryable): void {
  known.delete(db);
}

/** A one-way, fixed-length digest of the parts under the day's salt (base64url, 128 bits). */
export function saltedHash(salt: Buffer, ...parts: string[]): string {
  const hash = createHash("sha256").update(salt);
  for (const part of parts) hash.update(`\u0000${part}`);
  return hash.digest("base64url").slice(0, 22);
}

/**
 * A visitor of the day: (salt, address, user agent, site). The address counts by `clientKey` (an
 * IPv6 address by its /64); the site is the last of `siteHosts` (SITE_URL's host when set), the same
 * for the beacon and the forms.
 */
export function visitorHash(salt: Buffer, clientIp: string, userAgent: string, siteHosts: readonly string[]): string {
  return saltedHash(salt, "visitor", clientKey(clientIp), userAgent, siteHosts.at(-1) ?? "");
}

/** A client address of the day (by `clientKey`), for the visitor cap: never the address itself. */
export function clientHash(salt: Buffer, clientIp: string): string {
  return saltedHash(salt, "client", clientKey(clientIp));
}
