import { createHash } from "node:crypto";
import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import type { FileStore } from "../files/file-store.ts";
import type { ArchiveIo } from "./archive-io.ts";
import { backupTables, tableColumns, tableRows } from "./backup-tables.ts";

/** What goes in a backup: the whole site's tables and stored files. */
export interface BackupDeps {
  db: SqlExecutor;
  files: FileStore;
  now: () => Date;
  /** Zips written and read as streams (src/adapters/node-archives.ts). */
  archives: ArchiveIo;
}

/** The site's stored files (images, thumbnails, resource files); `uploads/` and `backups/` are the moving tools' own. */
export const siteFilePrefixes = ["images/", "downloads/"] as const;

export const archiveFormat = "no-filter-backup";
export const archiveFormatVersion = 1;
export const manifestPath = "manifest.json";

export interface ManifestEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof archiveFormat;
  formatVersion: number;
  /** The last migration applied to the site it came from. */
  schemaVersion: string;
  migrations: string[];
  createdAt: string;
  tables: { name: string; path: string; rows: number; columns: string[] }[];
  /** Every other entry of the zip, with its size and SHA-256: a restore checks them all before it changes anything. */
  entries: ManifestEntry[];
}

export interface FileRecord {
  key: string;
  contentType: string;
  fileName?: string;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

async function appliedMigrations(db: SqlQueryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY name");
  return rows.map((row) => row.name);
}

/**
 * The whole site as one zip, written as a stream: each table as JSON Lines (`tables/<name>.jsonl`,
 * rows in key order, read through a cursor a page at a time), each stored file under
 * `files/<key>` (read one at a time, stored as is: images and zips are compressed already) with
 * its type and name in `files.jsonl`, the site settings as `settings.json`, and `manifest.json`
 * (last) with the schema version and the size and SHA-256 of every entry, computed as the bytes
 * pass. `store` consumes the zip's bytes as they are made (parts in Blobs, a file, a test's
 * buffer); memory stays flat whatever the site's size. The tables are read in one repeatable-read
 * transaction, so they agree with each other. No session, passkey, recovery code or password hash
 * is in it (backup-tables.ts lists what is left out and why).
 */
export async function writeBackup<T>(
  deps: BackupDeps,
  store: (zip: AsyncIterable<Uint8Array>) => Promise<T>,
): Promise<{ manifest: Manifest; stored: T }> {
  const zip = deps.archives.zipWriter();
  const storing = store(zip.output);
  storing.catch(() => undefined);
  const createdAt = deps.now();
  const entries: ManifestEntry[] = [];
  const add = async (path: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, compress = true) => {
    const hash = createHash("sha256");
    let bytes = 0;
    await zip.add(
      path,
      (async function* () {
        for await (const chunk of source) {
          hash.update(chunk);
          bytes += chunk.byteLength;
          yield chunk;
        }
      })(),
      { compress, mtime: createdAt },
    );
    entries.push({ path, bytes, sha256: hash.digest("hex") });
  };
  try {
    const tables: Manifest["tables"] = [];
    const migrations = await deps.db.transaction(async (tx) => {
      await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      // Dates in the JSON are written in UTC whatever the server's zone: equal sites give equal bytes.
      await tx.query("SET LOCAL TimeZone = 'UTC'");
      for (const table of await backupTables(tx)) {
        const path = `tables/${table}.jsonl`;
        let rows = 0;
        await add(
          path,
          (async function* () {
            for await (const page of tableRows(tx, table)) {
              rows += page.length;
              yield utf8(page.map((line) => `${line}\n`).join(""));
            }
          })(),
        );
        tables.push({ name: table, path, rows, columns: (await tableColumns(tx, table)).map((column) => column.name) });
      }
      const { rows: settings } = await tx.query<{ key: string; value: string }>("SELECT key, value FROM site_settings ORDER BY key");
      await add("settings.json", [utf8(`${JSON.stringify(Object.fromEntries(settings.map((row) => [row.key, row.value])), null, 2)}\n`)]);
      return appliedMigrations(tx);
    });
    const records: string[] = [];
    for (const prefix of siteFilePrefixes) {
      const keys: string[] = [];
      for await (const key of deps.files.list(prefix)) keys.push(key);
      for (const key of keys.sort()) {
        const file = await deps.files.get(key);
        if (!file) continue;
        await add(`files/${key}`, [file.data], false);
        const record: FileRecord = { key, contentType: file.contentType, ...(file.fileName && { fileName: file.fileName }) };
        records.push(JSON.stringify(record));
      }
    }
    await add("files.jsonl", [utf8(records.map((line) => `${line}\n`).join(""))]);
    const manifest: Manifest = {
      format: archiveFormat,
      formatVersion: archiveFormatVersion,
      schemaVersion: migrations.at(-1) ?? "",
      migrations,
      createdAt: createdAt.toISOString(),
      tables,
      entries,
    };
    await zip.add(manifestPath, [utf8(`${JSON.stringify(manifest, null, 2)}\n`)], { compress: true, mtime: createdAt });
    zip.end();
    return { manifest, stored: await storing };
  } catch (error) {
    zip.abort(error);
    await storing.catch(() => undefined);
    throw error;
  }
}
