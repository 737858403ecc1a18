import { createHash } from "node:crypto";
import yazl from "yazl";
import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import type { FileStore } from "../files/file-store.ts";
import { backupTables, tableColumns, tableRows } from "./backup-tables.ts";

/** What goes in a backup: the whole site's tables and stored files. */
export interface BackupDeps {
  db: SqlExecutor;
  files: FileStore;
  now: () => Date;
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

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const utf8 = (text: string) => new TextEncoder().encode(text);

async function appliedMigrations(db: SqlQueryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY name");
  return rows.map((row) => row.name);
}

/**
 * The whole site as one zip: each table as JSON Lines (`tables/<name>.jsonl`, rows in key order),
 * each stored file under `files/<key>` with its type and name in `files.jsonl`, the site settings
 * as `settings.json`, and `manifest.json` with the schema version and a SHA-256 per entry. Read in
 * one repeatable-read transaction, so the tables agree with each other. No session, passkey,
 * recovery code or password hash is in it (backup-tables.ts lists what is left out and why).
 */
export async function writeBackup(deps: BackupDeps): Promise<{ bytes: Uint8Array; manifest: Manifest }> {
  const zip = new yazl.ZipFile();
  const collected = (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  })();
  const createdAt = deps.now();
  const entries: ManifestEntry[] = [];
  const add = (path: string, bytes: Uint8Array) => {
    entries.push({ path, bytes: bytes.byteLength, sha256: sha256(bytes) });
    zip.addBuffer(Buffer.from(bytes), path, { mtime: createdAt });
  };
  const tables: Manifest["tables"] = [];
  const migrations = await deps.db.transaction(async (tx) => {
    await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    // Dates in the JSON are written in UTC whatever the server's zone: equal sites give equal bytes.
    await tx.query("SET LOCAL TimeZone = 'UTC'");
    for (const table of await backupTables(tx)) {
      const lines: string[] = [];
      for await (const page of tableRows(tx, table)) lines.push(...page);
      const path = `tables/${table}.jsonl`;
      add(path, utf8(lines.map((line) => `${line}\n`).join("")));
      tables.push({ name: table, path, rows: lines.length, columns: (await tableColumns(tx, table)).map((column) => column.name) });
    }
    const { rows: settings } = await tx.query<{ key: string; value: string }>("SELECT key, value FROM site_settings ORDER BY key");
    add("settings.json", utf8(`${JSON.stringify(Object.fromEntries(settings.map((row) => [row.key, row.value])), null, 2)}\n`));
    return appliedMigrations(tx);
  });
  const records: string[] = [];
  for (const prefix of siteFilePrefixes) {
    const keys: string[] = [];
    for await (const key of deps.files.list(prefix)) keys.push(key);
    for (const key of keys.sort()) {
      const file = await deps.files.get(key);
      if (!file) continue;
      add(`files/${key}`, file.data);
      const record: FileRecord = { key, contentType: file.contentType, ...(file.fileName && { fileName: file.fileName }) };
      records.push(JSON.stringify(record));
    }
  }
  add("files.jsonl", utf8(records.map((line) => `${line}\n`).join("")));
  const manifest: Manifest = {
    format: archiveFormat,
    formatVersion: archiveFormatVersion,
    schemaVersion: migrations.at(-1) ?? "",
    migrations,
    createdAt: createdAt.toISOString(),
    tables,
    entries,
  };
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), manifestPath, { mtime: createdAt });
  zip.end();
  return { bytes: new Uint8Array(await collected), manifest };
}
