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

interface Waiting {
  row: ViewRow;
  done: (error?: Error) => void;
}

/** How many page-view batches this process has written to each database: a change mark for `liveDimensions`. */
const versions = new WeakMap<SqlQueryable, number>();
export const writtenVersion = (db: SqlQueryable) => versions.get(db) ?? 0;

const queues = new WeakMap<SqlQueryable, { waiting: Waiting[]; writing: boolean }>();

/** The most rows one INSERT takes. */
const maxBatch = 500;

/**
 * Writes a page view, together with the others that arrived meanwhile (group commit): while one
 * INSERT is on its way, the views that come in wait and go in the next one, each request still
 * answered only once its own row is written. One statement for many beacons is what lets a
 * single database session take a thousand a second (docs/decisions/0033-stats-speed-and-newsletter-clicks.md).
 */
export function writeView(db: SqlQueryable, row: ViewRow): Promise<void> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = { waiting: [], writing: false }));
  const mine = queue;
  return new Promise((resolve, reject) => {
    mine.waiting.push({ row, done: (error) => (error === undefined ? resolve() : reject(error)) });
    if (!mine.writing) void drain(db, mine);
  });
}

async function drain(db: SqlQueryable, queue: { waiting: Waiting[]; writing: boolean }): Promise<void> {
  queue.writing = true;
  while (queue.waiting.length > 0) {
    const batch = queue.waiting.splice(0, maxBatch);
    const column = <Key extends keyof ViewRow>(key: Key) => batch.map((entry) => entry.row[key]);
    try {
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
      for (const entry of batch) entry.done();
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(`stats: writing page views failed: ${String(error)}`);
      for (const entry of batch) entry.done(failure);
    }
  }
  queue.writing = false;
}

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
