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
  /** The client address, salted and hashed as the visitor is (never the address): what the visitor cap counts by. */
  client: string;
}

/**
 * One client address adds at most this many visitors a day, however its user agent changes
 * (a visitor is address × user agent): an office or a family behind one address is a handful,
 * a script rotating user agents is thousands (docs/decisions/0054-numbers-no-one-can-fake.md).
 */
export const maxVisitorsPerClient = 20;

/** How many page-view batches this process has written to each database: a change mark for `liveDimensions`. */
const versions = new WeakMap<SqlQueryable, number>();
export const writtenVersion = (db: SqlQueryable) => versions.get(db) ?? 0;

/**
 * Writes a page view, together with the others that arrived meanwhile (group commit, up to 500 a
 * statement): one statement for many beacons is what lets a single database session take a
 * thousand a second (docs/decisions/0033-stats-speed-and-newsletter-clicks.md). The same statement
 * keeps the visitor cap: a view of a visitor new to its client today is written only while the
 * client has fewer than `maxVisitorsPerClient` visitors that day, counting those of the batch in
 * order of arrival; a view of a visitor already counted is always written. (Two instances' batches
 * at the same instant each see the other's uncommitted new visitors as absent: the cap can be passed
 * by the few that race, never by a flood.)
 */
export const writeView = groupCommit<ViewRow>(async (db, rows) => {
  const column = <Key extends keyof ViewRow>(key: Key) => rows.map((row) => row[key]);
  await db.query(
    `WITH input AS (
       SELECT * FROM unnest($1::date[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
         WITH ORDINALITY AS r (day, at, visitor, path, source, utm_medium, utm_campaign, device, country, client, n)
     ), fresh AS (
       SELECT i.day, i.client, i.visitor, min(i.n) AS n FROM input i
        WHERE NOT EXISTS (SELECT 1 FROM stats_events e WHERE e.day = i.day AND e.client = i.client AND e.visitor = i.visitor)
        GROUP BY i.day, i.client, i.visitor
     ), admitted AS (
       SELECT f.day, f.client, f.visitor FROM fresh f
        WHERE (SELECT count(DISTINCT e.visitor) FROM stats_events e WHERE e.day = f.day AND e.client = f.client)
              + (SELECT count(*) FROM fresh g WHERE g.day = f.day AND g.client = f.client AND g.n <= f.n) <= $11
     )
     INSERT INTO stats_events (day, at, visitor, path, source, utm_medium, utm_campaign, device, country, client)
     SELECT i.day, i.at, i.visitor, i.path, i.source, i.utm_medium, i.utm_campaign, i.device, i.country, i.client FROM input i
      WHERE NOT EXISTS (SELECT 1 FROM fresh f WHERE f.day = i.day AND f.client = i.client AND f.visitor = i.visitor)
         OR EXISTS (SELECT 1 FROM admitted a WHERE a.day = i.day AND a.client = i.client AND a.visitor = i.visitor)`,
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
      column("client"),
      maxVisitorsPerClient,
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
