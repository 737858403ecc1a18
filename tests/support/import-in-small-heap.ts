/**
 * Run as a child process under a small `--max-old-space-size` by subscriber-import.test.ts, as
 * `import-in-small-heap.ts <bad|good> <bytes>`: builds a CSV file of that many bytes at most (of bad
 * rows or of good rows), imports it into an embedded database, and prints the result as one JSON
 * line. An import that holds the file's rows runs out of heap and the process dies; one that
 * streams finishes (decision 0062).
 */
import { maxFileBytes } from "../../src/core/files/upload-limits.ts";
import { importSubscribers } from "../../src/core/subscribers/subscriber-import.ts";
import { importConsentWording } from "../../src/core/subscribers/subscriber-import.schema.ts";
import { createMigratedDatabase } from "./test-databases.ts";

/** A CSV file of just under `bytes` (at most `maxFileBytes`, what an import takes): a header and rows made by `row`. */
export function csvOfSize(row: (index: number) => string, bytes: number): { file: Blob; rows: number } {
  const lines = ["email,subscribed_at"];
  let size = lines[0]!.length + 1;
  for (let index = 0; ; index++) {
    const line = row(index);
    if (size + line.length + 1 > Math.min(bytes, maxFileBytes)) break;
    lines.push(line);
    size += line.length + 1;
  }
  return { file: new Blob([lines.join("\n")]), rows: lines.length - 1 };
}

export const badRow = (index: number) => `not-an-email-${String(index)},`;
export const goodRow = (index: number) => `reader${String(index)}@example.com,2025-01-01`;

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [kind, bytes] = process.argv.slice(2);
  const { file, rows } = csvOfSize(kind === "good" ? goodRow : badRow, Number(bytes));
  const db = await createMigratedDatabase();
  const now = new Date("2026-11-27T12:00:00Z");
  const result = await importSubscribers({ db, now: () => now }, { file, wording: importConsentWording });
  await db.close();
  console.info(JSON.stringify({ rows, ...result, invalid: result.invalid.length }));
}
