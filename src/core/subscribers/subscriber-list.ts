import type { SqlQueryable } from "../db/sql-executor.ts";
import { ValidationError } from "../errors.ts";
import { limitOffset, type ListPage } from "../list-page.ts";
import { subscriberCursorPattern, type Subscriber, type SubscriberCounts, type SubscriberStatus } from "./subscriber.schema.ts";
import type { SubscriberFilter } from "./subscriber-tags.schema.ts";

interface SubscriberRow {
  id: number;
  email: string;
  status: SubscriberStatus;
  subscribed_at: Date;
  source: string;
  suppressed_reason: string | null;
  suppressed_at: Date | null;
  /** Where the next page starts when this row ends one (see `SubscriberCursor`). */
  cursor: string;
}

const suppressed = (status: SubscriberStatus) => status === "bounced" || status === "complained";

const toSubscriber = (row: SubscriberRow): Subscriber => ({
  id: row.id,
  email: row.email,
  isActive: row.status === "active",
  status: row.status,
  subscribedAt: row.subscribed_at.toISOString(),
  source: row.source,
  ...(suppressed(row.status) && {
    statusReason: row.suppressed_reason ?? null,
    statusChangedAt: row.suppressed_at ? row.suppressed_at.toISOString() : null,
  }),
});

const columns = `id, email, status, subscribed_at, source, suppressed_reason, suppressed_at,
                 (extract(epoch FROM subscribed_at) * 1000000)::bigint || '_' || id AS cursor`;

export interface SubscriberListQuery {
  status?: SubscriberStatus | undefined;
  /** People who get this topic's posts (they follow it or everything), who carry this tag, whose address holds `q`. */
  topic?: string | undefined;
  tag?: string | undefined;
  q?: string | undefined;
  /** One page: `limit` rows after the cursor `after` (from the start without), or of page `page` (OFFSET, kept for old links). */
  page?: (ListPage & { after?: string | undefined }) | undefined;
}

/** A page of the list, and where the next one starts (none when this page reached the end). */
export interface SubscriberListPage {
  subscribers: Subscriber[];
  next: string | undefined;
}

/**
 * The subscribers newest first (then by id), all or of one status: the whole list, or one page.
 * A page after a cursor is one index range scan (`subscribers_status_subscribed_at_idx` with a
 * status, `subscribers_subscribed_at_idx` without) however deep it is, and a row added or removed
 * meanwhile never moves the rows after the cursor: pages never skip or repeat a row. `page` (an
 * OFFSET) walks every row before its page and stays for links made before cursors.
 */
export async function listSubscribers(deps: { db: SqlQueryable }, query: SubscriberListQuery = {}): Promise<SubscriberListPage> {
  const { page } = query;
  if (page?.after !== undefined && page.page > 1) throw new ValidationError("Use either page or after, not both");
  const params: unknown[] = [];
  const where = subscriberFilterConditions(query, params);
  if (page?.after !== undefined) {
    if (!subscriberCursorPattern.test(page.after)) throw new ValidationError("after must be the cursor of a Link header");
    const [micros, id] = page.after.split("_");
    // Whole microseconds as an interval: exact, where a float of seconds could round.
    where.push(
      `(subscribed_at, id) < (timestamptz 'epoch' + $${String(params.push(micros))}::bigint * interval '1 microsecond', $${String(params.push(Number(id)))}::int)`,
    );
  }
  let slice = "";
  if (page) {
    // One row more than the page: whether a next page exists, without a Link to an empty one.
    slice = ` LIMIT $${String(params.push(page.limit + 1))}`;
    if (page.after === undefined && page.page > 1) slice += ` OFFSET $${String(params.push(limitOffset(page)[1]))}`;
  }
  const { rows } = await deps.db.query<SubscriberRow>(
    `SELECT ${columns} FROM subscribers s ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY subscribed_at DESC, id DESC${slice}`,
    params,
  );
  const more = page !== undefined && rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  return { subscribers: shown.map(toSubscriber), next: more ? shown[shown.length - 1]?.cursor : undefined };
}

/**
 * The Subscribers tab's filter as conditions on `subscribers s`, every value a bound parameter: a
 * status; a topic (as `follows <topic>` in a segment: they follow it, or everything); a subscriber
 * tag; part of the address (any case, `%` and `_` taken literally). An unknown slug matches nobody.
 */
export function subscriberFilterConditions(filter: SubscriberFilter, params: unknown[]): string[] {
  const bind = (value: unknown) => `$${String(params.push(value))}`;
  const where: string[] = [];
  if (filter.status) where.push(`s.status = ${bind(filter.status)}`);
  if (filter.topic)
    where.push(
      `(s.follows_everything OR EXISTS (SELECT 1 FROM subscriber_topics st JOIN tags t ON t.id = st.tag_id WHERE st.subscriber_id = s.id AND t.topic AND t.slug = ${bind(filter.topic.toLowerCase())}))`,
    );
  if (filter.tag)
    where.push(
      `EXISTS (SELECT 1 FROM subscriber_tag_assignments sta JOIN subscriber_tags tg ON tg.id = sta.subscriber_tag_id WHERE sta.subscriber_id = s.id AND tg.slug = ${bind(filter.tag.toLowerCase())})`,
    );
  if (filter.q?.trim()) where.push(`s.email ILIKE ${bind(`%${filter.q.trim().replace(/[\\%_]/g, (char) => `\\${char}`)}%`)}`);
  return where;
}

/** How many subscribers there are of each (status, came from the form), from the tallies kept beside them (migration 0030). */
async function readTallies(db: SqlQueryable): Promise<{ status: SubscriberStatus; from_form: boolean; subscribers: number; rows: number }[]> {
  const { rows } = await db.query<{ status: SubscriberStatus; from_form: boolean; subscribers: string; rows: string }>(
    "SELECT status, from_form, sum(subscribers)::text AS subscribers, count(*)::text AS rows FROM tallies.subscribers GROUP BY status, from_form",
  );
  return rows.map((row) => ({ ...row, subscribers: Number(row.subscribers), rows: Number(row.rows) }));
}

/** Past this many tally rows, a read folds them into one row a group (each signup adds one). */
const foldAfterRows = 500;

/**
 * The dashboard's totals at any size: sums of the tallies a trigger keeps as subscribers change,
 * exact and not an estimate. A read that finds many tally rows folds them (one statement, so the
 * sums never change: a concurrent fold deletes only what it sees and adds back the same sums).
 */
export async function countSubscribers(deps: { db: SqlQueryable }): Promise<SubscriberCounts> {
  const tallies = await readTallies(deps.db);
  if (tallies.reduce((rows, tally) => rows + tally.rows, 0) > foldAfterRows) {
    await deps.db.query(
      `WITH folded AS (DELETE FROM tallies.subscribers RETURNING status, from_form, subscribers)
       INSERT INTO tallies.subscribers (status, from_form, subscribers)
       SELECT status, from_form, sum(subscribers) FROM folded GROUP BY status, from_form HAVING sum(subscribers) <> 0`,
    );
  }
  const counts: SubscriberCounts = { all: 0, pending: 0, active: 0, unsubscribed: 0, bounced: 0, complained: 0, newsletterSignups: 0 };
  for (const tally of tallies) {
    counts.all += tally.subscribers;
    counts[tally.status] += tally.subscribers;
    if (tally.from_form) counts.newsletterSignups += tally.subscribers;
  }
  return counts;
}
