import type { ImportRun } from "../../../core/imports/import.schema.ts";

/** Warnings and failed images shown before "…and N more": the report keeps up to 1,000 of each. */
const shown = 50;

const count = (value: number) => value.toLocaleString("en-US");

/** What an import (or its dry run) did or would do: counts, then the failed images and the warnings by post. */
export function ImportReportView({ run }: { run: ImportRun }) {
  const { report } = run;
  const verb = run.dryRun ? "Would import" : "Imported";
  return (
    <div className="space-y-2" data-testid="import-report">
      <p className="font-bold">
        {run.status === "running" ? "Working… " : ""}
        {verb} {count(report.posts.new)} {report.posts.new === 1 ? "post" : "posts"}, skipped {count(report.posts.skipped)}.{" "}
        {run.dryRun ? "Images to copy" : "Images copied"}: {count(report.images.copied)}. Redirects: {count(report.redirects)}.
        {report.subscribers.imported + report.subscribers.skipped > 0 &&
          ` Subscribers: ${count(report.subscribers.imported)} ${run.dryRun ? "to import" : "imported"}, ${count(report.subscribers.skipped)} skipped.`}
      </p>
      {run.error && (
        <p role="alert" className="font-semibold text-signal-dark">
          {run.error}
        </p>
      )}
      {report.images.failed.length > 0 && (
        <details open>
          <summary className="font-semibold">Images that could not be copied ({count(report.images.failed.length)})</summary>
          <ul className="mt-1 list-disc pl-5 break-all">
            {report.images.failed.slice(0, shown).map((image) => (
              <li key={image.url}>
                {image.url}: {image.reason}
              </li>
            ))}
            {report.images.failed.length > shown && <li>…and {count(report.images.failed.length - shown)} more</li>}
          </ul>
        </details>
      )}
      {report.warnings.length > 0 && (
        <details open>
          <summary className="font-semibold">Warnings ({count(report.warnings.length)})</summary>
          <ul className="mt-1 list-disc pl-5">
            {report.warnings.slice(0, shown).map((warning, index) => (
              <li key={`${String(index)}-${warning.post}`}>
                <strong>{warning.post}</strong>: {warning.message}
              </li>
            ))}
            {report.warnings.length > shown && <li>…and {count(report.warnings.length - shown)} more</li>}
          </ul>
        </details>
      )}
    </div>
  );
}
