import { stringify } from "csv-stringify/sync";
import type { ServerEnv } from "../../config/server-env.ts";
import type { SqlQueryable } from "../db/sql-executor.ts";
import { takeRateLimit, type RateLimit } from "../rate-limit.ts";
import type { Subscriber, SubscriberStatus } from "./subscriber.schema.ts";

interface SubscriberRow {
  id: number;
  email: string;
  status: SubscriberStatus;
  subscribed_at: Date;
  source: string;
}

const toSubscriber = (row: SubscriberRow): Subscriber => ({
  id: row.id,
  email: row.email,
  isActive: row.status === "active",
  status: row.status,
  subscribedAt: row.subscribed_at.toISOString(),
  source: row.source,
});

/**
 * Records an address (already normalized by `emailSchema`) unless it is there in any case; the
 * caller can't tell which happened, so nobody learns who is subscribed.
 */
export async function addSubscriber(deps: { db: SqlQueryable; now: () => Date }, email: string, source: string): Promise<void> {
  await deps.db.query(
    "INSERT INTO subscribers (email, source, subscribed_at, status, confirmed_at) VALUES ($1, $2, $3, 'active', $3) ON CONFLICT ((lower(email))) DO NOTHING",
    [email, source, deps.now()],
  );
}

/** Per client address: plenty for a person, little for a script filling the list. */
export const subscribeLimit: RateLimit = { bucket: "newsletter", max: 10, windowMs: 10 * 60 * 1000 };

export interface SubscribeInput {
  /** Already checked and lower-cased by `emailSchema`. */
  email: string;
  /** Where the address came from: `newsletter` (the signup form) or `download` (a resource). */
  source: "newsletter" | "download";
  clientIp: string;
}

/**
 * A visitor gives their address: one hit on `limit` for their client address (429 when over it),
 * then the address is recorded unless it is there already. Run it inside the caller's transaction
 * when the signup is part of a larger change (a download request).
 */
export async function subscribe(
  deps: { db: SqlQueryable; now: () => Date; env?: Pick<ServerEnv, "RATE_LIMIT_MULTIPLIER"> },
  input: SubscribeInput,
  limit: RateLimit = subscribeLimit,
): Promise<void> {
  await takeRateLimit(deps, limit, input.clientIp);
  await addSubscriber(deps, input.email, input.source);
}

/** Every subscriber, newest first. */
export async function listSubscribers(deps: { db: SqlQueryable }): Promise<Subscriber[]> {
  const { rows } = await deps.db.query<SubscriberRow>(
    "SELECT id, email, status, subscribed_at, source FROM subscribers ORDER BY subscribed_at DESC, id DESC",
  );
  return rows.map(toSubscriber);
}

/** A cell that a spreadsheet would run as a formula gets a leading quote (CSV injection). */
function formulaSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const csvHeader = ["Email", "Status", "Subscribed At", "Source"];
const pageSize = 2000;

/**
 * The subscribers as CSV (RFC 4180 quoting, formula-safe cells), produced page by page with keyset
 * pagination, so memory stays flat however many there are, on every database driver.
 */
export function exportSubscribersCsv(deps: { db: SqlQueryable }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let lastId = 0;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(stringify([csvHeader], { record_delimiter: "windows" })));
        return;
      }
      const { rows } = await deps.db.query<SubscriberRow>(
        "SELECT id, email, status, subscribed_at, source FROM subscribers WHERE id > $1 ORDER BY id LIMIT $2",
        [lastId, pageSize],
      );
      if (rows.length === 0) {
        controller.close();
        return;
      }
      lastId = rows[rows.length - 1]?.id ?? lastId;
      const records = rows.map((row) => [
        formulaSafe(row.email),
        row.status === "active" ? "Active" : "Inactive",
        row.subscribed_at.toISOString(),
        formulaSafe(row.source),
      ]);
      controller.enqueue(encoder.encode(stringify(records, { record_delimiter: "windows" })));
    },
  });
}
