import { isRowId } from "../db/row-id.ts";
import { AppError, ConflictError, NotFoundError } from "../errors.ts";
import { deleteKeptUpload, keptUpload, readKeptUpload, type StartJob } from "../imports/import-runs.ts";
import type { RequestRebuild } from "../publishing/rebuild.ts";
import type { Clock } from "../shared/clock.ts";
import type { Signer } from "../shared/signer.ts";
import { deleteParts, isPartsFolder, partKeys, putParts, readParts } from "../files/file-parts.ts";
import { writeBackup, type BackupDeps } from "./backup-archive.ts";
import type { Backup, RestoreRun } from "./backup.schema.ts";
import { backupFolder, markStalledRuns } from "./stalled-runs.ts";
import { restoreArchive, siteHasContent, siteHasContentMessage, type RestoreDeps, type RestoreReport } from "./restore-archive.ts";

export interface BackupRunDeps extends BackupDeps {
  clock: Clock;
  signer: Signer;
  startJob: StartJob;
  rebuild: RequestRebuild;
}

/** The backups kept: the newest 8 (about two months of weekly ones); older ones and their archives are deleted. */
export const keptBackups = 8;

/** How long a backup's download link works. */
export const backupLinkLifetimeMs = 60 * 60 * 1000;

interface RunRow {
  id: number;
  kind: "backup" | "restore";
  status: Backup["status"];
  file_key: string | null;
  bytes: string | number | null;
  replace_content: boolean;
  report: RestoreReport | null;
  error: string | null;
  created_at: Date | string;
}

const archiveFileName = (key: string) => (isPartsFolder(key) ? `${key.slice("backups/".length, -1)}.zip` : key.slice("backups/".length));

async function deleteArchive(files: BackupDeps["files"], key: string): Promise<void> {
  if (isPartsFolder(key)) await deleteParts(files, key);
  else await files.delete(key).catch(() => undefined);
}

/** Starts a backup (the dashboard's button, or the weekly schedule): 202 at once, the archive in the file store when done. */
export async function startBackup(deps: BackupRunDeps): Promise<{ id: number }> {
  const { rows } = await deps.db.query<{ id: number }>("INSERT INTO backup_runs (kind, created_at) VALUES ('backup', $1) RETURNING id", [deps.now()]);
  const id = (rows[0] as { id: number }).id;
  deps.startJob({ kind: "backup", id });
  return { id };
}

/** How often a backup is made on its own (the Scheduled Function and `npm start`'s timer look daily / hourly). */
export const backupEveryMs = 7 * 24 * 60 * 60 * 1000;

/**
 * Starts a backup when none was started in the last week; otherwise nothing. Safe to call often.
 * First it marks runs whose process stopped as interrupted (stalled-runs.ts): this is the schedule's tick.
 */
export async function backupIfDue(deps: BackupRunDeps): Promise<{ id: number } | null> {
  await markStalledRuns(deps);
  const { rows } = await deps.db.query("SELECT 1 FROM backup_runs WHERE kind = 'backup' AND status <> 'failed' AND created_at > $1 LIMIT 1", [
    new Date(deps.now().getTime() - backupEveryMs),
  ]);
  return rows.length > 0 ? null : startBackup(deps);
}

/** Writes the archive of a started backup, then keeps only the newest `keptBackups`. */
export async function runBackup(deps: BackupDeps, id: number): Promise<void> {
  const { rows } = await deps.db.query<RunRow>("SELECT * FROM backup_runs WHERE id = $1 AND kind = 'backup' AND status = 'running'", [id]);
  const row = rows[0];
  if (!row) return;
  const key = backupFolder(id, new Date(row.created_at));
  try {
    // Streamed: the zip's bytes go to Blobs in parts as they are made, never whole in memory.
    const { stored } = await writeBackup(deps, (zip) => putParts(deps.files, key, zip, { contentType: "application/zip" }));
    await deps.db.query("UPDATE backup_runs SET status = 'done', file_key = $2, bytes = $3, finished_at = $4 WHERE id = $1", [
      id,
      key,
      stored.bytes,
      deps.now(),
    ]);
  } catch (error) {
    console.error(`[backups] backup ${String(id)} failed:`, error);
    await deleteArchive(deps.files, key).catch(() => undefined);
    await deps.db.query("UPDATE backup_runs SET status = 'failed', error = $2, finished_at = $3 WHERE id = $1", [
      id,
      "The backup could not be written.",
      deps.now(),
    ]);
  }
  await pruneBackups(deps);
}

async function pruneBackups(deps: BackupDeps): Promise<void> {
  const { rows } = await deps.db.query<{ id: number; file_key: string | null }>(
    `DELETE FROM backup_runs WHERE kind = 'backup' AND status <> 'running' AND id NOT IN (
       SELECT id FROM backup_runs WHERE kind = 'backup' AND status <> 'running' ORDER BY created_at DESC, id DESC LIMIT $1
     ) RETURNING id, file_key`,
    [keptBackups],
  );
  for (const row of rows) if (row.file_key) await deleteArchive(deps.files, row.file_key).catch(() => undefined);
}

const linkMessage = (id: number, expires: number) => `backup.${String(id)}.${String(expires)}`;

/** Backups, newest first; a finished one carries a signed link to its archive, valid for an hour. */
export async function listBackups(deps: Pick<BackupRunDeps, "db" | "signer" | "now">, downloadPath: (id: number) => string): Promise<Backup[]> {
  const { rows } = await deps.db.query<RunRow>("SELECT * FROM backup_runs WHERE kind = 'backup' ORDER BY created_at DESC, id DESC");
  const expires = deps.now().getTime() + backupLinkLifetimeMs;
  return rows.map((row) => ({
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    bytes: row.bytes === null ? null : Number(row.bytes),
    status: row.status,
    ...(row.status === "done" && {
      downloadUrl: `${downloadPath(row.id)}?${new URLSearchParams({ expires: String(expires), signature: deps.signer.sign("backup-link", linkMessage(row.id, expires)) }).toString()}`,
    }),
  }));
}

/** What a download link answers: the whole archive, or one of its parts (`part`), with the count and total size either way. */
export interface BackupDownload {
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** The bytes answered: the whole archive's (when recorded), or the part's. */
  bytes: number | null;
  /** The whole archive's size, when recorded. */
  totalBytes: number | null;
  /** How many parts the archive is stored in (a backup stored whole is one part). */
  parts: number;
  /** The part answered (1-based), or null for the whole archive. */
  part: number | null;
  /** The whole archive's file name (`2026-11-24-7.zip`). */
  fileName: string;
}

const partNotFound = "Backup part not found";

/** The part asked for, 1-based: a number from 1 to `parts`; anything else is a part that does not exist (404). */
function partNumber(part: string, parts: number): number {
  const number = /^[1-9]\d{0,5}$/.test(part) ? Number(part) : 0;
  if (number < 1 || number > parts) throw new NotFoundError(partNotFound);
  return number;
}

/**
 * A finished backup's archive for a signed, unexpired link (403 otherwise), asked with the owner's
 * session (the route is the owner's: a link copied out of the dashboard opens nothing elsewhere): the whole of it as a
 * stream of its parts, or with `part` just that one. On Netlify a streamed function response is cut
 * at 20 MB and 10 seconds, so the dashboard fetches the parts (8 MB each) one by one and joins them.
 */
export async function backupArchive(
  deps: Pick<BackupRunDeps, "db" | "files" | "signer" | "now">,
  id: number,
  link: { expires?: string | undefined; signature?: string | undefined; part?: string | undefined },
): Promise<BackupDownload> {
  const expires = Number(link.expires ?? "");
  const valid =
    /^\d{1,15}$/.test(link.expires ?? "") &&
    expires > deps.now().getTime() &&
    deps.signer.verify("backup-link", linkMessage(id, expires), link.signature ?? "");
  if (!valid) throw new AppError("This download link is invalid or has expired.", 403);
  const { rows } = await deps.db.query<RunRow>("SELECT * FROM backup_runs WHERE id = $1 AND kind = 'backup' AND status = 'done'", [id]);
  const row = rows[0];
  const key = row?.file_key;
  if (!row || !key) throw new NotFoundError("Backup not found");
  const fileName = archiveFileName(key);
  const recorded = row.bytes === null ? null : Number(row.bytes);
  if (isPartsFolder(key)) {
    const keys = await partKeys(deps.files, key);
    if (keys.length === 0) throw new NotFoundError("Backup not found");
    if (link.part === undefined)
      return { chunks: readParts(deps.files, key), bytes: recorded, totalBytes: recorded, parts: keys.length, part: null, fileName };
    const part = partNumber(link.part, keys.length);
    const file = await deps.files.get(keys[part - 1] ?? "");
    if (!file) throw new NotFoundError(partNotFound);
    return { chunks: [file.data], bytes: file.data.byteLength, totalBytes: recorded, parts: keys.length, part, fileName };
  }
  // Stored whole by the first version (0037): one part.
  const file = await deps.files.get(key);
  if (!file) throw new NotFoundError("Backup not found");
  const bytes = file.data.byteLength;
  if (link.part !== undefined) partNumber(link.part, 1);
  return { chunks: [file.data], bytes, totalBytes: bytes, parts: 1, part: link.part === undefined ? null : 1, fileName };
}

/**
 * Starts a restore: a site with content is refused at once (409) unless `replace`; the archive waits
 * in the file store for its run, which checks every hash before it changes anything.
 */
export async function startRestore(
  deps: BackupRunDeps,
  input: { file?: File | undefined; uploadId?: string | undefined; replace: boolean },
): Promise<{ id: number }> {
  if (!input.replace && (await siteHasContent(deps))) throw new ConflictError(siteHasContentMessage);
  const key = await keptUpload(deps, input);
  try {
    const { rows } = await deps.db.query<{ id: number }>(
      "INSERT INTO backup_runs (kind, file_key, bytes, replace_content, created_at) VALUES ('restore', $1, $2, $3, $4) RETURNING id",
      [key, input.file?.size ?? null, input.replace, deps.now()],
    );
    const id = (rows[0] as { id: number }).id;
    deps.startJob({ kind: "restore", id });
    return { id };
  } catch (error) {
    await deleteKeptUpload(deps.files, key);
    throw error;
  }
}

/** Runs a started restore; a refused archive ends the run as failed with the reason, the site unchanged. */
export async function runRestore(deps: RestoreDeps & { rebuild: RequestRebuild }, id: number): Promise<void> {
  const { rows } = await deps.db.query<RunRow>("SELECT * FROM backup_runs WHERE id = $1 AND kind = 'restore' AND status = 'running'", [id]);
  const row = rows[0];
  if (!row?.file_key) return;
  const finish = (status: "done" | "failed", report: RestoreReport | null, error: string | null) =>
    deps.db.query("UPDATE backup_runs SET status = $2, report = $3, error = $4, finished_at = $5 WHERE id = $1", [
      id,
      status,
      report && JSON.stringify(report),
      error,
      deps.now(),
    ]);
  try {
    // The upload (in parts, or one blob) goes to a temporary file as it is read: a zip is read from its end.
    const upload = await readKeptUpload(deps.files, row.file_key);
    const report = await restoreArchive(deps, upload.open(), { replace: row.replace_content });
    // The restore replaced backup_runs' neighbours, not backup_runs: this row is still here.
    await finish("done", report, null);
    deps.rebuild();
  } catch (error) {
    if (!(error instanceof AppError)) console.error(`[backups] restore ${String(id)} failed:`, error);
    await finish("failed", null, error instanceof AppError ? error.message : "The restore failed; nothing was changed.");
  } finally {
    await deleteKeptUpload(deps.files, row.file_key);
  }
}

export async function getRestoreRun(deps: Pick<BackupDeps, "db">, id: number): Promise<RestoreRun> {
  if (!isRowId(id)) throw new NotFoundError("Restore not found");
  const { rows } = await deps.db.query<RunRow>("SELECT * FROM backup_runs WHERE id = $1 AND kind = 'restore'", [id]);
  const row = rows[0];
  if (!row) throw new NotFoundError("Restore not found");
  return { id: row.id, status: row.status, error: row.error, report: row.report };
}
