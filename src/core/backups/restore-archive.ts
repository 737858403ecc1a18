import { createHash } from "node:crypto";
import { z } from "zod";
import { ConflictError, ValidationError } from "../errors.ts";
import { deleteFilesQuietly } from "../files/file-store.ts";
import { utf8 } from "../imports/zip-entries.ts";
import { entryLines, readEntryWhole, type ArchiveFile } from "./archive-io.ts";
import { archiveFormat, manifestPath, siteFilePrefixes, type BackupDeps, type FileRecord, type Manifest } from "./backup-archive.ts";
import { backupTables, excludedTables, insertRows, resetIdentities, rowsPerPage, tableColumns } from "./backup-tables.ts";

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
 * An archive checked before anything is written: its manifest, every entry's size and SHA-256
 * (each entry streamed through the hash, none held), no entry the manifest does not list, no table
 * or migration this site does not know (an archive from a newer version). Throws ValidationError
 * saying what is wrong.
 */
export async function checkArchive(deps: Pick<BackupDeps, "db">, archive: ArchiveFile): Promise<Manifest> {
  if (!archive.has(manifestPath)) throw new ValidationError(notBackupMessage);
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(utf8(await readEntryWhole(archive, manifestPath))));
  } catch {
    throw new ValidationError(notBackupMessage);
  }
  const listed = new Set(manifest.entries.map((entry) => entry.path));
  for (const path of archive.paths()) if (path !== manifestPath && !listed.has(path)) throw new ValidationError(damagedMessage(path));
  for (const entry of manifest.entries) {
    if (!archive.has(entry.path)) throw new ValidationError(damagedMessage(entry.path));
    const hash = createHash("sha256");
    let bytes = 0;
    try {
      for await (const chunk of await archive.open(entry.path)) {
        hash.update(chunk as Buffer);
        bytes += (chunk as Buffer).byteLength;
      }
    } catch {
      throw new ValidationError(damagedMessage(entry.path));
    }
    if (bytes !== entry.bytes || hash.digest("hex") !== entry.sha256) throw new ValidationError(damagedMessage(entry.path));
  }
  const { rows } = await deps.db.query<{ name: string }>("SELECT name FROM schema_migrations");
  const ours = new Set(rows.map((row) => row.name));
  const unknown = manifest.migrations.filter((name) => !ours.has(name));
  if (unknown.length > 0)
    throw new ValidationError(`This backup comes from a newer version of the site (${unknown.join(", ")}): update the site first.`);
  const tables = new Set(await backupTables(deps.db));
  // An archive made before a table was left out (the stats' salts and raw views) still restores: that table is passed over.
  manifest.tables = manifest.tables.filter((table) => !excludedTables.has(table.name));
  for (const table of manifest.tables) {
    if (!tables.has(table.name)) throw new ValidationError(`This backup holds a table this site does not have (${table.name}).`);
    if (!listed.has(table.path)) throw new ValidationError(damagedMessage(table.path));
  }
  return manifest;
}

export interface RestoreReport {
  tables: number;
  rows: number;
  files: number;
}

async function fileRecords(archive: ArchiveFile): Promise<FileRecord[]> {
  const records: FileRecord[] = [];
  if (!archive.has("files.jsonl")) return records;
  for await (const line of entryLines(archive, "files.jsonl")) {
    const record = fileRecordSchema.parse(JSON.parse(line));
    if (!safeKey.test(record.key) || !archive.has(`files/${record.key}`)) throw new ValidationError(damagedMessage("files.jsonl"));
    records.push(record);
  }
  return records;
}

/**
 * Restores a backup archive (a zip file's path, or its bytes as they stream from Blobs): into an empty site, or over one with content
 * when `replace` is set. Every hash is checked first, in a pass of its own (nothing changes on a
 * bad one); then the files are stored one at a time, then every table is emptied and filled in one
 * transaction, its JSON Lines read a page at a time (an older archive's rows fill the columns it
 * has; newer columns take their defaults, as the migrations since would have given them). A
 * failed transaction deletes the files it added; a successful one deletes the files the old site
 * had that the archive does not. Memory stays flat whatever the archive's size.
 */
export async function restoreArchive(
  deps: BackupDeps,
  source: string | AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: { replace: boolean },
): Promise<RestoreReport> {
  return deps.archives.withArchive(source, { notZipMessage: notBackupMessage, maxBytes: maxRestoreBytes }, (archive) =>
    restoreOpened(deps, archive, options),
  );
}

async function restoreOpened(deps: BackupDeps, archive: ArchiveFile, options: { replace: boolean }): Promise<RestoreReport> {
  const manifest = await checkArchive(deps, archive);
  if (!options.replace && (await siteHasContent(deps))) throw new ConflictError(siteHasContentMessage);
  let records: FileRecord[];
  try {
    records = await fileRecords(archive);
  } catch {
    throw new ValidationError(damagedMessage("files.jsonl"));
  }
  const before = new Set<string>();
  for (const prefix of siteFilePrefixes) for await (const key of deps.files.list(prefix)) before.add(key);
  const added: string[] = [];
  try {
    for (const record of records) {
      const data = await readEntryWhole(archive, `files/${record.key}`);
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
          let page: string[] = [];
          for await (const line of entryLines(archive, archived.path)) {
            page.push(line);
            if (page.length === rowsPerPage) {
              await insertRows(tx, table, columns, page);
              rowCount += page.length;
              page = [];
            }
          }
          await insertRows(tx, table, columns, page);
          rowCount += page.length;
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
