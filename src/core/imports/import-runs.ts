import { randomUUID } from "node:crypto";
import { isRowId } from "../db/row-id.ts";
import { AppError, NotFoundError } from "../errors.ts";
import { checkUploadComplete, deleteUpload, isUploadFolder, readUploadParts, readUploadWhole, uploadFolderKey } from "./chunked-uploads.ts";
import { readGhostExport } from "./ghost-export.ts";
import { emptyReport, importReportSchema, type ImportForm, type ImportReport, type ImportRun, type ImportSource } from "./import.schema.ts";
import type { ExportSubscribers, SourceItem } from "./imported-post.ts";
import { importItem, newClaims, type ImportContext, type ImportDeps } from "./import-posts.ts";
import { importListedSubscribers } from "./import-subscribers.ts";
import { readMediumExport } from "./medium-export.ts";
import { readSubstackExport } from "./substack-export.ts";
import { readWordpressExport } from "./wordpress-export.ts";

/** Starts a job elsewhere without waiting (production: a Background Function; tests and `npm start`: in process). */
export type StartJob = (
  job: { kind: "import" | "backup" | "restore"; id: number },
  options?: { waitUntil?: (promise: Promise<unknown>) => void },
) => void;

export interface ImportRunDeps extends ImportDeps {
  startJob: StartJob;
}

/** How many warnings and failed images a report lists: a 5,000-post export with a warning each stays readable. */
export const listedReportItems = 1000;

interface RunRow {
  id: number;
  source: ImportSource;
  dry_run: boolean;
  status: ImportRun["status"];
  file_key: string;
  site_url: string | null;
  report: unknown;
  error: string | null;
}

/** Where an upload's bytes wait for their run. */
export const uploadKey = (id: string): string => `uploads/${id}`;

/**
 * The key a run reads its file from: a chunked upload's folder (checked complete), or the form's
 * file stored under a fresh key.
 */
export async function keptUpload(
  deps: { files: ImportDeps["files"] },
  form: { file?: File | undefined; uploadId?: string | undefined },
): Promise<string> {
  if (form.uploadId) {
    await checkUploadComplete(deps, form.uploadId);
    return uploadFolderKey(form.uploadId);
  }
  const key = uploadKey(randomUUID());
  await deps.files.put(key, new Uint8Array(await (form.file as File).arrayBuffer()), { contentType: "application/octet-stream" });
  return key;
}

/** Deletes what `keptUpload` kept. */
export async function deleteKeptUpload(files: ImportDeps["files"], key: string): Promise<void> {
  if (isUploadFolder(key)) await deleteUpload(files, key);
  else await files.delete(key).catch(() => undefined);
}

/** The kept bytes whole (a zip, a JSON file), and how to stream them again from the start (a WXR file). */
export async function readKeptUpload(
  files: ImportDeps["files"],
  key: string,
): Promise<{ whole: () => Promise<Uint8Array>; open: () => AsyncIterable<Uint8Array> | Iterable<Uint8Array> }> {
  if (isUploadFolder(key)) return { whole: () => readUploadWhole(files, key), open: () => readUploadParts(files, key) };
  const stored = await files.get(key);
  if (!stored) throw new NotFoundError("The uploaded file is gone: please upload it again.");
  return { whole: () => Promise.resolve(stored.data), open: () => chunksOf(stored.data, 1024 * 1024) };
}

/**
 * Keeps the export in the file store and starts its run: a dry run, or the import the owner
 * confirmed after one. Answers at once (202); `getImportRun` shows the progress.
 */
export async function startImport(deps: ImportRunDeps, form: ImportForm): Promise<{ id: number }> {
  const key = await keptUpload(deps, form);
  try {
    const { rows } = await deps.db.query<{ id: number }>(
      "INSERT INTO import_runs (source, dry_run, file_key, site_url, report, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
      [form.source, form.dryRun, key, form.siteUrl, JSON.stringify({ ...emptyReport(), consent: form.consent === true }), deps.now()],
    );
    const id = (rows[0] as { id: number }).id;
    deps.startJob({ kind: "import", id });
    return { id };
  } catch (error) {
    await deleteKeptUpload(deps.files, key);
    throw error;
  }
}

export async function getImportRun(deps: Pick<ImportDeps, "db">, id: number): Promise<ImportRun> {
  if (!isRowId(id)) throw new NotFoundError("Import not found");
  const { rows } = await deps.db.query<RunRow>("SELECT * FROM import_runs WHERE id = $1", [id]);
  const row = rows[0];
  if (!row) throw new NotFoundError("Import not found");
  return { id: row.id, source: row.source, status: row.status, dryRun: row.dry_run, report: importReportSchema.parse(row.report), error: row.error };
}

/** The bytes in slices, as a file streams in. */
function* chunksOf(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let start = 0; start < bytes.byteLength; start += size) yield bytes.subarray(start, start + size);
}

/** The export's items as a stream, and anything else it carries (an email list). */
async function readExport(
  source: ImportSource,
  file: Awaited<ReturnType<typeof readKeptUpload>>,
): Promise<{ site: string | null; items: AsyncIterable<SourceItem> | Iterable<SourceItem>; subscribers: ExportSubscribers | null }> {
  if (source === "ghost") return { site: null, ...readGhostExport(await file.whole()) };
  if (source === "wordpress") return { ...(await readWordpressExport(file.open)), subscribers: null };
  if (source === "substack") return readSubstackExport(await file.whole());
  return { site: null, items: await readMediumExport(await file.whole()), subscribers: null };
}

function capped(report: ImportReport): ImportReport {
  return {
    ...report,
    warnings: report.warnings.slice(0, listedReportItems),
    items: report.items.slice(0, listedReportItems),
    images: { ...report.images, failed: report.images.failed.slice(0, listedReportItems) },
  };
}

/**
 * Runs one import: reads the export, imports (or only reports) item by item, saving the report
 * as it goes so the dashboard shows progress, then the email list a Substack or Ghost export holds
 * (through the subscriber import and its consent rule: only when the owner confirmed it). A dry run
 * goes the same way without the writes, so its report is what the import will do. A file that is
 * not what it claims ends the run as failed with the reason. The upload is deleted at the end.
 */
export async function runImport(deps: ImportDeps, id: number): Promise<void> {
  const { rows } = await deps.db.query<RunRow>("SELECT * FROM import_runs WHERE id = $1 AND status = 'running'", [id]);
  const row = rows[0];
  if (!row) return;
  const consent = (row.report as { consent?: boolean } | null)?.consent === true;
  const context: ImportContext = {
    source: row.source,
    dryRun: row.dry_run,
    siteUrl: row.site_url,
    report: emptyReport(),
    claims: newClaims(),
    listedItems: listedReportItems,
  };
  const save = (status: ImportRun["status"], error: string | null = null) =>
    deps.db.query(
      "UPDATE import_runs SET report = $2, status = $3, error = $4, finished_at = CASE WHEN $3 = 'running' THEN NULL ELSE $5::timestamptz END WHERE id = $1",
      [id, JSON.stringify(capped(context.report)), status, error, deps.now()],
    );
  try {
    const { site, items, subscribers } = await readExport(row.source, await readKeptUpload(deps.files, row.file_key));
    context.siteUrl ??= site;
    let count = 0;
    for await (const item of items) {
      await importItem(deps, context, item);
      if (++count % 25 === 0) await save("running");
    }
    if (subscribers !== null) await importListedSubscribers(deps, context, subscribers, consent);
    await save("done");
    if (!row.dry_run && context.report.posts.new > 0) deps.rebuild();
  } catch (error) {
    const message = error instanceof AppError ? error.message : "The import stopped on an unexpected error; what was imported stays.";
    if (!(error instanceof AppError)) console.error(`[imports] run ${String(id)} failed:`, error);
    await save("failed", message);
  } finally {
    await deleteKeptUpload(deps.files, row.file_key);
  }
}
