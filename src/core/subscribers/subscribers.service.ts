import { stringify } from "csv-stringify/sync";
import type { SqlQueryable } from "../db/sql-executor.ts";
import type { Subscriber } from "./subscriber.schema.ts";

interface SubscriberRow {
  id: number;
  email: string;
  is_active: boolean;
  subscribed_at: Date;
  source: string;
}

const toSubscriber = (row: SubscriberRow): Subscriber => ({
  id: row.id,
  email: row.email,
  isActive: row.is_active,
  subscribedAt: row.subscribed_at.toISOString(),
  source: row.source,
});

/**
 * Records an address (already normalized by `emailSchema`) unless it is there in any case; the
 * caller can't tell which happened, so nobody learns who is subscribed.
 */
export async function addSubscriber(deps: { db: SqlQueryable; now: () => Date }, email: string, source: string): Promise<void> {
  await deps.db.query(
    "INSERT INTO subscribers (email, source, subscribed_at) VALUES ($1, $2, $3) ON CONFLICT ((lower(email))) DO NOTHING",
    [email, source, deps.now()],
  );
}

/** Every subscriber, newest first. */
export async function listSubscribers(deps: { db: SqlQueryable }): Promise<Subscriber[]> {
  const { rows } = await deps.db.query<SubscriberRow>(
    "SELECT id, email, is_active, subscribed_at, source FROM subscribers ORDER BY subscribed_at DESC, id DESC",
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
        "SELECT id, email, is_active, subscribed_at, source FROM subscribers WHERE id > $1 ORDER BY id LIMIT $2",
        [lastId, pageSize],
      );
      if (rows.length === 0) {
        controller.close();
        return;
      }
      lastId = rows[rows.length - 1]?.id ?? lastId;
      const records = rows.map((row) => [
        formulaSafe(row.email),
        row.is_active ? "Active" : "Inactive",
        row.subscribed_at.toISOString(),
        formulaSafe(row.source),
      ]);
      controller.enqueue(encoder.encode(stringify(records, { record_delimiter: "windows" })));
    },
  });
}
