import { createHash } from "node:crypto";
import { z } from "zod";
import { ConflictError, ValidationError } from "../errors.ts";
import { deleteFilesQuietly } from "../files/file-store.ts";
import { readZipEntries, utf8 } from "../imports/zip-entries.ts";
import { archiveFormat, manifestPath, siteFilePrefixes, type BackupDeps, type FileRecord, type Manifest } from "./backup-archive.ts";
import { backupTables, insertRows, resetIdentities, rowsPerPage, tableColumns } from "./backup-tables.ts";

export const notBackupMessage = "This file is not a No Filter backup (a zip with manifest.json).";
export const siteHasContentMessage = "This site already has posts, resources or subscribers: restore only replaces them when you ask it to.";
export const damagedMessage = (path: string) => `The archive is damaged: ${path} does not match its checksum. Nothing was changed.`;

/** What a restore may unpack: a site with every file it stores (a backup's own limit is the file store's). */
export const maxRestoreBytes = 4 * 1024 * 1024 * 1024;

const manifestSchema = z.object({
  format: z.literal(archiveFormat),
  formatVersion: z.literal(1),
  schemaVersion: z.string(),
  migrations: z.array(z.string()),
  createdAt: z.string(),
  tables: z.array(z.object({ name: z.string(), path: z.string(), rows: z.number().int(), columns: z.array(z.string()) })),
  entries: z.array(z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});

const fileRecordSchema = z.object({ key: z.string(), contentType: z.string(), fileName: z.string().optional() });
const safeKey = /^(images|downloads)\/[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** True when the site holds anything an owner made: a restore into it needs `replace`. */
export async function siteHasContent(deps: Pick<BackupDeps, "db">): Promise<boolean> {
  const { rows } = await deps.db.query("SELECT 1 FROM posts UNION ALL SELECT 1 FROM downloads UNION ALL SELECT 1 FROM subscribers LIMIT 1");
  return rows.length > 0;
}

/**
 * An archive read and checked whole before anything is written: its manifest, every entry's size
 * and SHA-256, no entry the manifest does not list, no table or migration this site does not know
 * (an archive from a newer version). Throws ValidationError saying what is wrong.
 */
export async function checkArchive(
  deps: Pick<BackupDeps, "db">,
  bytes: Uint8Array,
): Promise<{ manifest: Manifest; entries: Map<string, Uint8Array> }> {
  const entries = await readZipEntries(bytes, () => true, notBackupMessage, maxRestoreBytes);
  const manifestBytes = entries.get(manifestPath);
  if (!manifestBytes) throw new ValidationError(notBackupMessage);
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(utf8(manifestBytes)));
  } catch {
    throw new ValidationError(notBackupMessage);
  }
  const listed = new Set(manifest.entries.map((entry) => entry.path));
  for (const path of entries.keys()) if (path !== manifestPath && !listed.has(path)) throw new ValidationError(damagedMessage(path));
  for (const entry of manifest.entries) {
    const data = entries.get(entry.path);
    if (!data || data.byteLength !== entry.bytes || createHash("sha256").update(data).digest("hex") !== entry.sha256) {
      throw new ValidationError(damagedMessage(entry.path));
    }
  }
  const { rows } = await deps.db.query<{ name: string }>("SELECT name FROM schema_migrations");
  const ours = new Set(rows.map((row) => row.name));
  const unknown = manifest.migrations.filter((name) => !ours.has(name));
  if (unknown.length > 0)
    throw new ValidationError(`This backup comes from a newer version of the site (${unknown.join(", ")}): update the site first.`);
  const tables = new Set(await backupTables(deps.db));
  for (const table of manifest.tables) {
    if (!tables.has(table.name)) throw new ValidationError(`This backup holds a table this site does not have (${table.name}).`);
    if (!listed.has(table.path)) throw new ValidationError(damagedMessage(table.path));
  }
  return { manifest, entries };
}

export interface RestoreReport {
  tables: number;
  rows: number;
  files: number;
}

function fileRecords(entries: Map<string, Uint8Array>): FileRecord[] {
  const lines = utf8(entries.get("files.jsonl")).split("\n").filter(Boolean);
  return lines.map((line) => {
    const record = fileRecordSchema.parse(JSON.parse(line));
    if (!safeKey.test(record.key) || !entries.has(`files/${record.key}`)) throw new ValidationError(damagedMessage("files.jsonl"));
    return record;
  });
}

/**
 * Restores a checked archive: into an empty site, or over one with content when `replace` is
 * set. Every hash is checked first (nothing changes on a bad one); then the files are stored, then
 * every table is emptied and filled in one transaction (an older archive's rows fill the columns it
 * has; newer columns take their defaults, as the migrations since would have given them). A
 * failed transaction deletes the files it added; a successful one deletes the files the old site
 * had that the archive does not.
 */
export async function restoreArchive(deps: BackupDeps, bytes: Uint8Array, options: { replace: boolean }): Promise<RestoreReport> {
  const { manifest, entries } = await checkArchive(deps, bytes);
  if (!options.replace && (await siteHasContent(deps))) throw new ConflictError(siteHasContentMessage);
  const records = fileRecords(entries);
  const before = new Set<string>();
  for (const prefix of siteFilePrefixes) for await (const key of deps.files.list(prefix)) before.add(key);
  const added: string[] = [];
  try {
    for (const record of records) {
      const data = entries.get(`files/${record.key}`) ?? new Uint8Array();
      await deps.files.put(record.key, data, { contentType: record.contentType, ...(record.fileName && { fileName: record.fileName }) });
      if (!before.has(record.key)) added.push(record.key);
    }
    let rowCount = 0;
    await deps.db.transaction(async (tx) => {
      const tables = await backupTables(tx);
      await tx.exec(`TRUNCATE ${tables.map((table) => `"${table}"`).join(", ")} RESTART IDENTITY CASCADE`);
      const byName = new Map(manifest.tables.map((table) => [table.name, table]));
      for (const table of tables) {
        const archived = byName.get(table);
        if (archived) {
          const ours = new Set((await tableColumns(tx, table)).map((column) => column.name));
          const columns = archived.columns.filter((column) => ours.has(column));
          const lines = utf8(entries.get(archived.path)).split("\n").filter(Boolean);
          for (let start = 0; start < lines.length; start += rowsPerPage)
            await insertRows(tx, table, columns, lines.slice(start, start + rowsPerPage));
          rowCount += lines.length;
        }
        await resetIdentities(tx, table);
      }
    });
    const kept = new Set(records.map((record) => record.key));
    await deleteFilesQuietly(
      deps.files,
      [...before].filter((key) => !kept.has(key)),
    );
    return { tables: manifest.tables.length, rows: rowCount, files: records.length };
  } catch (error) {
    await deleteFilesQuietly(deps.files, added);
    throw error;
  }
}
