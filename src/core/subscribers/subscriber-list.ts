import type { SqlQueryable } from "../db/sql-executor.ts";
import { ValidationError } from "../errors.ts";
import { limitOffset, type ListPage } from "../list-page.ts";
import { subscriberCursorPattern, type Subscriber, type SubscriberCounts, type SubscriberStatus } from "./subscriber.schema.ts";

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
  const { status, page } = query;
  if (page?.after !== undefined && page.page > 1) throw new ValidationError("Use either page or after, not both");
  const params: unknown[] = [];
  const where: string[] = [];
  if (status) where.push(`status = $${String(params.push(status))}`);
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
    `SELECT ${columns} FROM subscribers ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY subscribed_at DESC, id DESC${slice}`,
    params,
  );
  const more = page !== undefined && rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  return { subscribers: shown.map(toSubscriber), next: more ? shown[shown.length - 1]?.cursor : undefined };
}

/** The dashboard's totals, counted by the database rather than from a list it would have to load whole. */
export async function countSubscribers(deps: { db: SqlQueryable }): Promise<SubscriberCounts> {
  const { rows } = await deps.db.query<SubscriberCounts>(
    `SELECT count(*)::int AS "all",
            count(*) FILTER (WHERE status = 'pending')::int AS pending,
            count(*) FILTER (WHERE status = 'active')::int AS active,
            count(*) FILTER (WHERE status = 'unsubscribed')::int AS unsubscribed,
            count(*) FILTER (WHERE status = 'bounced')::int AS bounced,
            count(*) FILTER (WHERE status = 'complained')::int AS complained,
            count(*) FILTER (WHERE source = 'newsletter')::int AS "newsletterSignups"
       FROM subscribers`,
  );
  return rows[0] ?? { all: 0, pending: 0, active: 0, unsubscribed: 0, bounced: 0, complained: 0, newsletterSignups: 0 };
}
