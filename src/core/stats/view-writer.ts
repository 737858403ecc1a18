import { groupCommit } from "../db/group-commit.ts";
import type { SqlQueryable } from "../db/sql-executor.ts";
import { RateLimitedError } from "../errors.ts";

/** One raw page view as `stats_events` stores it. */
export interface ViewRow {
  day: string;
  at: Date;
  visitor: string;
  path: string;
  source: string;
  utmMedium: string;
  utmCampaign: string;
  device: string;
  country: string;
}

/** How many page-view batches this process has written to each database: a change mark for `liveDimensions`. */
const versions = new WeakMap<SqlQueryable, number>();
export const writtenVersion = (db: SqlQueryable) => versions.get(db) ?? 0;

/**
 * Writes a page view, together with the others that arrived meanwhile (group commit, up to 500 a
 * statement): one statement for many beacons is what lets a single database session take a
 * thousand a second (docs/decisions/0033-stats-speed-and-newsletter-clicks.md).
 */
export const writeView = groupCommit<ViewRow>(async (db, rows) => {
  const column = <Key extends keyof ViewRow>(key: Key) => rows.map((row) => row[key]);
  await db.query(
    `INSERT INTO stats_events (day, at, visitor, path, source, utm_medium, utm_campaign, device, country)
     SELECT * FROM unnest($1::date[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])`,
    [
      column("day"),
      column("at"),
      column("visitor"),
      column("path"),
      column("source"),
      column("utmMedium"),
      column("utmCampaign"),
      column("device"),
      column("country"),
    ],
  );
  versions.set(db, writtenVersion(db) + 1);
});

const windows = new Map<string, { start: number; hits: number }>();

/**
 * The beacon's rate limit, counted in this process's memory: a beacon must cost one write, not
 * two, and a counter row shared by every beacon of a client would queue them all on its lock. So
 * the limit holds per function instance (a client spread over many instances gets more): enough to
 * stop one script from filling the table, which is all it is for. Keys are salted hashes, never
 * addresses.
 */
export function takeViewLimit(key: string, limit: { max: number; windowMs: number }, now: Date): void {
  const time = now.getTime();
  const start = Math.floor(time / limit.windowMs) * limit.windowMs;
  if (windows.size > 50_000) {
    for (const [other, window] of windows) if (window.start < start) windows.delete(other);
  }
  const window = windows.get(key);
  if (!window || window.start !== start) {
    windows.set(key, { start, hits: 1 });
    return;
  }
  if (window.hits >= limit.max) {
    throw new RateLimitedError("Too many requests. Please try again later.", Math.max(1, Math.ceil((start + limit.windowMs - time) / 1000)));
  }
  window.hits += 1;
}
