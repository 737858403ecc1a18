import { createHash } from "node:crypto";
import { z } from "zod";
import type { SqlQueryable } from "../db/sql-executor.ts";
import { ConflictError, ValidationError } from "../errors.ts";
import { deleteFilesQuietly } from "../files/file-store.ts";
import { utf8 } from "../imports/zip-entries.ts";
import { storedFileType } from "../files/upload-rules.ts";
import type { ApiUrls } from "../shared/links.ts";
import { entryLines, readEntryWhole, type ArchiveFile } from "./archive-io.ts";
import { archiveFormat, manifestPath, siteFilePrefixes, type BackupDeps, type FileRecord, type Manifest } from "./backup-archive.ts";
import { backupTables, excludedTables, insertRows, orderColumns, resetIdentities, rowsPerPage, tableColumns } from "./backup-tables.ts";
import { checkRow, type Row } from "./restore-checks.ts";
import { recountSendCounters } from "../newsletter/send-counters.ts";

/** What a restore needs beyond a backup's: which image addresses are the site's own (for the HTML it cleans). */
export type RestoreDeps = BackupDeps & { urls: Pick<ApiUrls, "isFile"> };

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

/** A row or file a restore left out, and why. */
export interface SkippedEntry {
  /** The archive's entry: `tables/posts.jsonl`, `files/images/a.png`. */
  entry: string;
  /** The row's key (`id=3`), for a table's row. */
  row?: string;
  reason: string;
}

export interface RestoreReport {
  tables: number;
  rows: number;
  files: number;
  /** The first `maxSkippedListed` rows and files left out (failed the checks a save makes). */
  skipped?: SkippedEntry[];
  /** How many were left out in all. */
  skippedCount?: number;
}

/** How many left-out rows and files a report names (the count says how many there were). */
export const maxSkippedListed = 100;

/** The single-column foreign keys: a row whose parent was left out is left out too. */
async function parentLinks(db: SqlQueryable): Promise<{ child: string; column: string; parent: string; parentColumn: string }[]> {
  const { rows } = await db.query<{ child: string; column: string; parent: string; parent_column: string }>(
    `SELECT c.relname AS child, ca.attname AS column, p.relname AS parent, pa.attname AS parent_column FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_attribute ca ON ca.attrelid = k.conrelid AND ca.attnum = k.conkey[1]
     JOIN pg_attribute pa ON pa.attrelid = k.confrelid AND pa.attnum = k.confkey[1]
     WHERE k.contype = 'f' AND n.nspname = 'public' AND cardinality(k.conkey) = 1`,
  );
  return rows.map((row) => ({ child: row.child, column: row.column, parent: row.parent, parentColumn: row.parent_column }));
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
 * had that the archive does not. Memory stays flat whatever the archive's size. Every row and file
 * passes the checks a save makes (restore-checks.ts; files by their bytes): one that fails is left
 * out and named in the report, never written raw.
 */
export async function restoreArchive(
  deps: RestoreDeps,
  source: string | AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: { replace: boolean },
): Promise<RestoreReport> {
  return deps.archives.withArchive(source, { notZipMessage: notBackupMessage, maxBytes: maxRestoreBytes }, (archive) =>
    restoreOpened(deps, archive, options),
  );
}

async function restoreOpened(deps: RestoreDeps, archive: ArchiveFile, options: { replace: boolean }): Promise<RestoreReport> {
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
  const skipped: SkippedEntry[] = [];
  let skippedCount = 0;
  const skip = (entry: SkippedEntry) => {
    skippedCount += 1;
    if (skipped.length < maxSkippedListed) skipped.push(entry);
  };
  try {
    const kept: FileRecord[] = [];
    for (const record of records) {
      const data = await readEntryWhole(archive, `files/${record.key}`);
      // Judged by its bytes as an upload is, whatever type the archive claims: an "image" that is HTML stays out.
      const contentType = await storedFileType(record.key, data);
      if (!contentType) {
        skip({ entry: `files/${record.key}`, reason: "its bytes are not the kind of file its place holds" });
        continue;
      }
      await deps.files.put(record.key, data, { contentType, ...(record.fileName && { fileName: record.fileName }) });
      kept.push(record);
      if (!before.has(record.key)) added.push(record.key);
    }
    let rowCount = 0;
    await deps.db.transaction(async (tx) => {
      const tables = await backupTables(tx);
      await tx.exec(`TRUNCATE ${tables.map((table) => `"${table}"`).join(", ")} RESTART IDENTITY CASCADE`);
      const byName = new Map(manifest.tables.map((table) => [table.name, table]));
      const links = await parentLinks(tx);
      // For each table, the values (by column) of its rows left out that another table's rows point at.
      const leftOut = new Map<string, Map<string, Set<string>>>();
      const needs = { isOwnImage: deps.urls.isFile };
      for (const table of tables) {
        const archived = byName.get(table);
        if (archived) {
          const ours = new Set((await tableColumns(tx, table)).map((column) => column.name));
          const columns = archived.columns.filter((column) => ours.has(column));
          const keyColumns = await orderColumns(tx, table);
          const parents = links.filter((link) => link.child === table && leftOut.has(link.parent));
          const pointedAt = [...new Set(links.filter((link) => link.parent === table).map((link) => link.parentColumn))];
          const check = (line: string): string | null => {
            const row = JSON.parse(line) as Row;
            const orphan = parents.find(
              (link) => row[link.column] != null && leftOut.get(link.parent)?.get(link.parentColumn)?.has(String(row[link.column])),
            );
            const checked = orphan ? { refused: `belongs to a ${orphan.parent} row left out` } : checkRow(table, row, needs);
            if (!("refused" in checked)) return checked === row ? line : JSON.stringify(checked);
            skip({
              entry: archived.path,
              row: keyColumns.map((column) => `${column}=${String(row[column])}`).join(","),
              reason: String(checked.refused),
            });
            for (const column of pointedAt) {
              const values = leftOut.get(table) ?? new Map<string, Set<string>>();
              leftOut.set(table, values);
              values.set(column, (values.get(column) ?? new Set()).add(String(row[column])));
            }
            return null;
          };
          let page: string[] = [];
          for await (const line of entryLines(archive, archived.path)) {
            const written = check(line);
            if (written !== null) page.push(written);
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
      await recountSendCounters(tx);
    });
    const keptKeys = new Set(kept.map((record) => record.key));
    await deleteFilesQuietly(
      deps.files,
      [...before].filter((key) => !keptKeys.has(key)),
    );
    return {
      tables: manifest.tables.length,
      rows: rowCount,
      files: kept.length,
      ...(skippedCount > 0 && { skipped, skippedCount }),
    };
  } catch (error) {
    await deleteFilesQuietly(deps.files, added);
    throw error;
  }
}
