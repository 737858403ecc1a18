import type { SqlQueryable } from "../db/sql-executor.ts";

/**
 * Tables a backup leaves out, each for a reason: secrets and sign-in state (session tokens, passkeys,
 * recovery codes, pending logins, challenges: a restored site is signed into afresh; API keys, though
 * only hashed: a backup that leaves the site must not carry a way back in, decision 0067), counters and
 * locks that mean nothing elsewhere, mail still queued (a restore must not send it again), the
 * build's state, and the runs of imports and backups themselves. `schema_migrations` goes into the
 * manifest instead. The stats' salts and raw page views stay out too: a salt beside the visitor hashes
 * it made turns them back into addresses, and the privacy page promises each salt is gone the next day
 * (the daily totals, which hold no visitor, are kept). Outgoing webhooks stay out whole: an endpoint's
 * signing secret must never sit in an archive in clear, and its queued deliveries must not go again
 * after a restore (the owner adds the endpoints again; docs/decisions/0068-outgoing-webhooks.md). Every
 * other table is in the archive, whoever added it.
 */
export const excludedTables: ReadonlySet<string> = new Set([
  "admin_sessions",
  // Reader sessions and sign-ins hold secrets' hashes and live minutes to days: a restore signs readers out (decision 0073).
  "reader_sessions",
  "reader_sign_ins",
  "admin_passkeys",
  "admin_recovery_codes",
  "admin_security",
  "api_keys",
  "pending_logins",
  "passkey_challenges",
  "login_attempts",
  "login_throttle",
  "rate_limits",
  "rate_limit_counters",
  "stats_salts",
  "stats_events",
  "background_run_starts",
  "build_hook_state",
  "site_build_status",
  "outbox",
  "outbox_pause",
  "schema_migrations",
  "import_runs",
  "backup_runs",
  "webhook_endpoints",
  "webhook_events",
  "webhook_deliveries",
  "webhook_attempts",
]);

const identifier = /^[a-z_][a-z0-9_]*$/;

/** A table or column name, quoted; a name that is not a plain identifier is refused (archives come from outside). */
export function quoted(name: string): string {
  if (!identifier.test(name)) throw new Error(`Not a plain identifier: ${name}`);
  return `"${name}"`;
}

/** The site's tables a backup holds, parents before children (foreign keys), by name otherwise. */
export async function backupTables(db: SqlQueryable): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name COLLATE "C"`,
  );
  const tables = rows.map((row) => row.table_name).filter((name) => !excludedTables.has(name) && identifier.test(name));
  const { rows: links } = await db.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE k.contype = 'f' AND n.nspname = 'public' ORDER BY c.relname COLLATE "C", p.relname COLLATE "C"`,
  );
  // Both lists in a fixed order, whatever the catalog's: equal sites give equal archives, entry for entry.
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const link of links) if (link.child === table && link.parent !== table && tables.includes(link.parent)) visit(link.parent, path);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

/** A table's columns that can be written (generated columns are computed), and which are identities. */
export async function tableColumns(db: SqlQueryable, table: string): Promise<{ name: string; identity: boolean }[]> {
  const { rows } = await db.query<{ column_name: string; is_identity: string }>(
    `SELECT column_name, is_identity FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((row) => ({ name: row.column_name, identity: row.is_identity === "YES" }));
}

/** The primary key's columns (the order rows are written in), or every column for a table without one. */
export async function orderColumns(db: SqlQueryable, table: string): Promise<string[]> {
  const { rows } = await db.query<{ column_name: string }>(
    `SELECT a.attname AS column_name FROM pg_index i
     JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
     WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
    [quoted(table)],
  );
  return rows.length > 0 ? rows.map((row) => row.column_name) : (await tableColumns(db, table)).map((column) => column.name);
}

/** Rows a page, read and written: small enough for memory, few enough round trips. */
export const rowsPerPage = 500;

/**
 * A table's rows as JSON text, a page at a time, in key order (so equal tables give equal bytes),
 * through a cursor: one query however large the table, and never more than a page in memory.
 * Must run inside a transaction (a cursor lives in one); the backup's is repeatable read.
 */
export async function* tableRows(db: SqlQueryable, table: string): AsyncGenerator<string[]> {
  const order = (await orderColumns(db, table)).map(quoted).join(", ");
  await db.query(`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT to_jsonb(t)::text AS row FROM ${quoted(table)} t ORDER BY ${order}`);
  try {
    for (;;) {
      const { rows } = await db.query<{ row: string }>(`FETCH FORWARD ${String(rowsPerPage)} FROM backup_rows`);
      if (rows.length > 0) yield rows.map((row) => row.row);
      if (rows.length < rowsPerPage) return;
    }
  } finally {
    // After a failed statement the transaction is aborted and rolls back anyway: its error is the one to see.
    await db.query("CLOSE backup_rows").catch(() => undefined);
  }
}

/**
 * Writes rows read back from an archive: only the columns both the archive and this database have
 * (an older archive lacks newer columns, which take their defaults), identity values kept as they were.
 */
export async function insertRows(db: SqlQueryable, table: string, columns: string[], rows: string[]): Promise<void> {
  if (rows.length === 0) return;
  const list = columns.map(quoted).join(", ");
  await db.query(
    `INSERT INTO ${quoted(table)} (${list}) OVERRIDING SYSTEM VALUE
     SELECT ${list} FROM jsonb_populate_recordset(NULL::${quoted(table)}, $1::jsonb)`,
    [`[${rows.join(",")}]`],
  );
}

/** Sets each identity column's next value past the rows restored. */
export async function resetIdentities(db: SqlQueryable, table: string): Promise<void> {
  for (const column of (await tableColumns(db, table)).filter((candidate) => candidate.identity)) {
    await db.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max(${quoted(column.name)}) FROM ${quoted(table)}), 0) + 1, false)`,
      [quoted(table), column.name],
    );
  }
}
