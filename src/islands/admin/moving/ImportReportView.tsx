import type { ImportItem, ImportRun } from "../../../core/imports/import.schema.ts";

/** Warnings and failed images shown before "…and N more": the report keeps up to 1,000 of each. */
const shown = 50;

const count = (value: number) => value.toLocaleString("en-US");

const statusLabels: Record<NonNullable<ImportItem["status"]>, string> = { published: "Published", draft: "Draft", scheduled: "Scheduled" };

/** What became of an item, in the dry run's future or the import's past. */
function outcomeLabel(item: ImportItem, dryRun: boolean): string {
  if (item.outcome === "imported") return dryRun ? "Import" : "Imported";
  if (item.outcome === "skipped") return dryRun ? "Skip" : "Skipped";
  return "Failed";
}

/** Each item of the export: what it becomes here (status, category, slug, images, redirect) or why it is left out. */
function ItemTable({ run }: { run: ImportRun }) {
  const { items, totals } = run.report;
  return (
    <details open>
      <summary className="font-semibold">
        Each item of the export ({count(totals.items)}): {count(totals.imported)} {run.dryRun ? "to import" : "imported"}, {count(totals.skipped)}{" "}
        {run.dryRun ? "to skip" : "skipped"}
        {totals.failed > 0 ? `, ${count(totals.failed)} failed` : ""}
      </summary>
      <div className="mt-1 max-h-96 overflow-auto">
        <table className="w-full text-left text-xs" data-testid="import-items">
          <thead>
            <tr>
              <th scope="col" className="p-1">
                Item
              </th>
              <th scope="col" className="p-1">
                {run.dryRun ? "Will" : "Result"}
              </th>
              <th scope="col" className="p-1">
                Status
              </th>
              <th scope="col" className="p-1">
                Category
              </th>
              <th scope="col" className="p-1">
                Images
              </th>
              <th scope="col" className="p-1">
                Redirect
              </th>
              <th scope="col" className="p-1">
                Why
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, index) => (
              <tr key={`${String(index)}-${item.sourceId}`} className="border-t border-ink/20 align-top">
                <th scope="row" className="p-1 font-semibold">
                  {item.title}
                  {item.kind !== "post" && <span className="font-normal"> ({item.kind})</span>}
                </th>
                <td className="p-1">{outcomeLabel(item, run.dryRun)}</td>
                <td className="p-1">{item.status ? statusLabels[item.status] : ""}</td>
                <td className="p-1">{item.category ?? ""}</td>
                <td className="p-1">
                  {item.outcome === "skipped" ? "" : count(item.images)}
                  {item.needsImages && <strong className="block text-signal-dark">Needs images</strong>}
                </td>
                <td className="p-1 break-all">{item.redirect ?? ""}</td>
                <td className="p-1">{item.reason ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {totals.items > items.length && <p>…and {count(totals.items - items.length)} more, counted above.</p>}
      </div>
    </details>
  );
}

/** What an import (or its dry run) did or would do: counts, each item, the email list, then the failed images and the warnings by post. */
export function ImportReportView({ run }: { run: ImportRun }) {
  const { report } = run;
  const verb = run.dryRun ? "Would import" : "Imported";
  const { subscribers } = report;
  return (
    <div className="space-y-2" data-testid="import-report">
      <p className="font-bold">
        {run.status === "running" ? "Working… " : ""}
        {verb} {count(report.posts.new)} {report.posts.new === 1 ? "post" : "posts"}, skipped {count(report.posts.skipped)}.{" "}
        {report.posts.failed > 0 && `Failed: ${count(report.posts.failed)}. `}
        {run.dryRun ? "Images to copy" : "Images copied"}: {count(report.images.copied)}. Redirects: {count(report.redirects)}.
        {subscribers.imported + subscribers.skipped > 0 &&
          ` Subscribers: ${count(subscribers.imported)} ${run.dryRun ? "to import" : "imported"}, ${count(subscribers.alreadyThere)} already here, ${count(subscribers.keptOut)} kept out${subscribers.invalid > 0 ? `, ${count(subscribers.invalid)} invalid` : ""}.`}
      </p>
      {run.error && (
        <p role="alert" className="font-semibold text-signal-dark">
          {run.error}
        </p>
      )}
      {report.totals.items > 0 && <ItemTable run={run} />}
      {report.subscriberReasons.length > 0 && (
        <details open>
          <summary className="font-semibold">Email list: not imported, and why</summary>
          <ul className="mt-1 list-disc pl-5" data-testid="import-subscriber-reasons">
            {report.subscriberReasons.map((reason) => (
              <li key={reason.reason}>
                {reason.reason}: {count(reason.count)}
              </li>
            ))}
          </ul>
        </details>
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
