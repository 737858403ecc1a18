/**
 * Run as a child process under a small `--max-old-space-size` by subscriber-import.test.ts: builds
 * 4 MB CSV files (of bad rows, then of good rows), imports each into an embedded database, and
 * prints the results as one JSON line. An import that holds the file's rows runs out of heap and
 * the process dies; one that streams finishes (decision 0062).
 */
import { maxFileBytes } from "../../src/core/files/upload-limits.ts";
import { importSubscribers } from "../../src/core/subscribers/subscriber-import.ts";
import { importConsentWording } from "../../src/core/subscribers/subscriber-import.schema.ts";
import { createMigratedDatabase } from "./test-databases.ts";

/** A CSV file of just under `maxFileBytes`: a header and rows made by `row`. */
export function fourMegabyteCsv(row: (index: number) => string): { file: Blob; rows: number } {
  const lines = ["email,subscribed_at"];
  let size = lines[0]!.length + 1;
  for (let index = 0; ; index++) {
    const line = row(index);
    if (size + line.length + 1 > maxFileBytes) break;
    lines.push(line);
    size += line.length + 1;
  }
  return { file: new Blob([lines.join("\n")]), rows: lines.length - 1 };
}

export const badRow = (index: number) => `not-an-email-${String(index)},`;
export const goodRow = (index: number) => `reader${String(index)}@example.com,2025-01-01`;

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const db = await createMigratedDatabase();
  const now = new Date("2026-11-27T12:00:00Z");
  const results = [];
  for (const row of [badRow, goodRow]) {
    const { file, rows } = fourMegabyteCsv(row);
    const result = await importSubscribers({ db, now: () => now }, { file, wording: importConsentWording });
    results.push({ rows, ...result, invalid: result.invalid.length });
  }
  await db.close();
  console.info(JSON.stringify(results));
}
