import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { PayloadTooLargeError, ValidationError } from "../errors.ts";
import { maxFileBytes } from "../files/upload-limits.ts";
import { fileTooLargeMessage } from "../messages.ts";
import { enrollImported } from "../sequences/sequences.service.ts";
import { recordWebhookEvents, type WebhookRecordDeps } from "../webhooks/webhook-events.ts";
import { readCsvRecords, type CsvRecord } from "./csv-records.ts";
import { listedInvalidRows, type SubscriberImportResult } from "./subscriber-import.schema.ts";
import { emailSchema } from "./subscriber.schema.ts";
import { setSubscriberTags, subscriberTagList } from "./subscriber-tags.ts";

export const missingEmailColumnMessage = 'The file needs an "email" column (a header row naming its columns).';

/** Rows per INSERT: one statement each, well under Postgres's parameter and memory limits. */
const batchSize = 1000;

interface Row {
  email: string;
  subscribedAt: Date | null;
}

/**
 * Imports a CSV of people who already agreed to the newsletter elsewhere (the owner says so, in
 * `wording`). New addresses become `active` with source `import` and a consent record; addresses
 * already here — whatever their status, so an unsubscribed person is never re-activated — and
 * repeats within the file are skipped; rows with a bad address or date are counted, and the first
 * `listedInvalidRows` reported by line (a file of bad rows once made a 118 MB answer: issue 26).
 * All or nothing: one transaction.
 */
export async function importSubscribers(
  deps: ImportDeps,
  input: { file: Blob; wording: string; welcome?: boolean; tags?: string | undefined },
): Promise<SubscriberImportResult> {
  const outcome = await importSubscriberList(deps, input);
  return {
    imported: outcome.added,
    skipped: outcome.unique - outcome.added + outcome.repeated,
    invalid: outcome.invalid,
    invalidCount: outcome.invalidCount,
  };
}

/** The database and clock; `webhooksRecorded` (a request's) starts a webhook delivery run after the answer. */
export type ImportDeps = { db: SqlExecutor } & WebhookRecordDeps;

/** What importing a list does, or (a dry run) would do: every row is in exactly one count. */
export interface SubscriberListOutcome extends Pick<SubscriberImportResult, "invalid" | "invalidCount"> {
  added: number;
  /** Addresses already here, by their status here (an unsubscribed or pending person is left as they are). */
  alreadyHere: Map<string, number>;
  /** Addresses the file holds more than once: counted once. */
  repeated: number;
  /** Valid addresses, each once. */
  unique: number;
}

/**
 * `importSubscribers` with the whole outcome, and a dry run that takes the same path without the
 * writes: each batch's addresses already here are read before it is inserted, so a dry run and an
 * import of the same list give the same counts. The file is read as a stream (csv-records.ts) and
 * written `batchSize` rows at a time as they are read, so an import holds a batch, the refused rows
 * it lists and the addresses seen (for repeats), never the file's rows (decision 0062).
 */
export async function importSubscriberList(
  deps: ImportDeps,
  input: { file: Blob; wording: string; welcome?: boolean; dryRun?: boolean; tags?: string | undefined },
): Promise<SubscriberListOutcome> {
  if (input.file.size > maxFileBytes) throw new PayloadTooLargeError(fileTooLargeMessage);
  const now = deps.now();
  // The batch's tags (issue 42 point 4): `import:<date>` and the owner's, on everyone it adds.
  const day = now.toISOString().slice(0, 10);
  const batchTags = [`import:${day}`, ...subscriberTagList(input.tags)];
  const records = readCsvRecords(input.file.stream());
  try {
    // The header before the transaction: a file without an email column opens none.
    const header = await records.next();
    const reader = rowReader(header.done ? undefined : header.value, now);
    const alreadyHere = new Map<string, number>();
    let added = 0;
    let unique = 0;
    await deps.db.transaction(async (tx) => {
      const write = async (batch: Row[]) => {
        unique += batch.length;
        const { rows: present } = await tx.query<{ status: string; n: number }>(
          "SELECT status, count(*)::int AS n FROM subscribers WHERE lower(email) = ANY($1::text[]) GROUP BY status",
          [batch.map((row) => row.email)],
        );
        let here = 0;
        for (const { status, n } of present) {
          alreadyHere.set(status, (alreadyHere.get(status) ?? 0) + n);
          here += n;
        }
        if (input.dryRun) {
          added += batch.length - here;
          return;
        }
        const inserted = await insertBatch(tx, batch, input.wording, now);
        // One `subscriber.created` per new person, committed with them (nothing written when no endpoint wants it).
        await recordWebhookEvents(
          tx,
          deps,
          "subscriber.created",
          inserted.map((subscriber) => ({ data: { ...subscriber, status: "active" as const }, subscriberId: subscriber.id })),
        );
        // The welcome sequence only when the owner ticked it: these people confirmed elsewhere, maybe long ago.
        if (input.welcome)
          await enrollImported(
            tx,
            deps,
            inserted.map((subscriber) => subscriber.id),
          );
        await setSubscriberTags(
          tx,
          inserted.map((subscriber) => subscriber.id),
          batchTags,
          { source: "import", detail: `import of ${day}`, at: now },
        );
        added += inserted.length;
      };
      let batch: Row[] = [];
      for await (const record of records) {
        const row = reader.read(record);
        if (row) batch.push(row);
        if (batch.length < batchSize) continue;
        await write(batch);
        batch = [];
      }
      if (batch.length > 0) await write(batch);
    });
    return { added, alreadyHere, repeated: reader.duplicates, unique, invalid: reader.invalid, invalidCount: reader.invalidCount };
  } finally {
    // Stops the reading when the import ends early (no email column, a failed statement).
    await records.return();
  }
}

/**
 * Checks the rows under `header` one at a time: a valid address not seen before in the file is
 * answered; a bad address or date is counted and, among the first `listedInvalidRows`, listed by
 * line; a repeat is counted.
 */
function rowReader(header: CsvRecord | undefined, now: Date) {
  const columns = (header?.fields ?? []).map((name) => name.trim().toLowerCase().replace(/\s+/g, "_"));
  const emailAt = columns.indexOf("email");
  if (emailAt < 0) throw new ValidationError(missingEmailColumnMessage);
  const dateAt = columns.indexOf("subscribed_at");
  const seen = new Set<string>();
  const reader = {
    invalid: [] as SubscriberImportResult["invalid"],
    invalidCount: 0,
    duplicates: 0,
    read({ line, fields }: CsvRecord): Row | undefined {
      const email = emailSchema.safeParse(fields[emailAt] ?? "");
      if (!email.success) return refuse(line, () => `Invalid email address: "${truncate(fields[emailAt] ?? "")}"`);
      const dateText = dateAt < 0 ? "" : (fields[dateAt] ?? "").trim();
      const subscribedAt = dateText === "" ? null : parseDate(dateText);
      if (subscribedAt === undefined || (subscribedAt && subscribedAt > now))
        return refuse(line, () => `Invalid subscribed_at date: "${truncate(dateText)}"`);
      if (seen.has(email.data)) {
        reader.duplicates++;
        return undefined;
      }
      seen.add(email.data);
      return { email: email.data, subscribedAt };
    },
  };
  const refuse = (line: number, reason: () => string): undefined => {
    reader.invalidCount++;
    if (reader.invalid.length < listedInvalidRows) reader.invalid.push({ line, reason: reason() });
    return undefined;
  };
  return reader;
}

// ISO 8601 as other tools export it: a date, or a date and time with `T` or a space; UTC unless an offset is given.
const isoDate = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** A date from the file, or `undefined` when it is not one (2024-02-30 and 25:00 included). */
function parseDate(text: string): Date | undefined {
  const match = isoDate.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = "", offset = "Z"] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  // Date would roll 2024-02-30 over to March: the written calendar values must stand as they are.
  const written = new Date(Date.UTC(y, mo - 1, d));
  if (written.getUTCMonth() !== mo - 1 || written.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  const zone = offset.toUpperCase() === "Z" ? "Z" : `${offset.slice(0, 3)}:${offset.slice(-2)}`;
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${zone}`);
}

const truncate = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

/**
 * One statement per batch: the new rows and their consent records together, addresses already
 * present left alone by `ON CONFLICT DO NOTHING`. Answers the new subscribers.
 */
async function insertBatch(db: SqlQueryable, rows: Row[], wording: string, now: Date): Promise<{ id: number; email: string }[]> {
  const { rows: added } = await db.query<{ id: number; email: string }>(
    `WITH input AS (
       SELECT email, subscribed_at FROM unnest($1::text[], $2::timestamptz[]) AS row (email, subscribed_at)
     ), added AS (
       INSERT INTO subscribers (email, source, subscribed_at, status, confirmed_at)
       SELECT email, 'import', coalesce(subscribed_at, $3), 'active', $3 FROM input
       ON CONFLICT ((lower(email))) DO NOTHING
       RETURNING id, email, subscribed_at
     ), consents AS (
       INSERT INTO subscriber_consents (subscriber_id, source, wording, asked_at, confirmed_at)
       SELECT id, 'import', $4, subscribed_at, $3 FROM added
       RETURNING subscriber_id
     )
     SELECT added.id, added.email FROM added JOIN consents ON consents.subscriber_id = added.id`,
    [rows.map((row) => row.email), rows.map((row) => row.subscribedAt), now, wording],
  );
  return added.map((row) => ({ id: Number(row.id), email: row.email }));
}
