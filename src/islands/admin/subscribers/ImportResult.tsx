import type { SubscriberImportResult } from "../../../core/subscribers/subscriber-import.schema.ts";

/**
 * A long list of refused rows is cut here (the server lists at most 100 and counts the rest); the
 * owner fixes the file and imports it again.
 */
const shownInvalid = 50;

export const importSummary = (result: SubscriberImportResult) =>
  `Imported ${result.imported.toLocaleString("en-US")}, skipped ${result.skipped.toLocaleString("en-US")}.`;

/** What an import did: the counts, then the refused rows by line, the rest as "…and N more". */
export function ImportResult({ result }: { result: SubscriberImportResult }) {
  const listed = result.invalid.slice(0, shownInvalid);
  return (
    <>
      <p className="font-bold">{importSummary(result)}</p>
      {result.invalidCount > 0 && (
        <>
          <p className="mt-2">
            {result.invalidCount.toLocaleString("en-US")} {result.invalidCount === 1 ? "row was" : "rows were"} not imported:
          </p>
          <ul className="mt-1 list-disc pl-5">
            {listed.map((row) => (
              <li key={row.line}>
                Line {row.line}: {row.reason}
              </li>
            ))}
            {result.invalidCount > listed.length && <li>…and {(result.invalidCount - listed.length).toLocaleString("en-US")} more</li>}
          </ul>
        </>
      )}
    </>
  );
}
