import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { applyMigrations, readMigrations } from "../../src/core/db/migrations.ts";
import { createPgliteExecutor, pgliteSnapshot } from "../../src/adapters/pglite-executor.ts";
import type { SqlExecutor } from "../../src/core/db/sql-executor.ts";
import { startNeonHttpEndpoint } from "./neon-http-endpoint.ts";
import { startNeonWsProxy } from "./neon-ws-proxy.ts";

/** A fresh, empty database for one test file, and how to throw it away. */
export interface TestDatabase {
  db: SqlExecutor;
  /** For a server database: its URL (so a second connection can be opened). */
  url?: string;
  /** Neon driver only: how many queries went over its HTTP endpoint. */
  httpQueries?: () => number;
  drop(): Promise<void>;
}

export interface DatabaseTarget {
  name: string;
  /** What carries its queries: PGlite in process, or a server through `pg` or Neon's driver. */
  driver: "pglite" | "pg" | "neon";
  /** Opens a fresh, empty database (no migrations applied: the migration tests start here). */
  create(): Promise<TestDatabase>;
  /** Opens a fresh database with every migration applied: every other suite's set-up. */
  createMigrated(): Promise<TestDatabase>;
}

const serverUrl = process.env.TEST_DATABASE_URL;

/**
 * The databases the data-layer suites run against: always the embedded PGlite; with
 * `TEST_DATABASE_URL`, also that PostgreSQL through `pg`, and through Neon's production driver
 * behind a WebSocket-to-TCP proxy.
 */
const pglite: DatabaseTarget = {
  name: "pglite",
  driver: "pglite",
  create: () => pgliteFrom("empty", () => Promise.resolve()),
  createMigrated: async () => pgliteFrom("migrated", async (db) => void (await applyMigrations(db, await readMigrations()))),
};

export const databaseTargets: DatabaseTarget[] = [
  pglite,
  ...(serverUrl
    ? [
        serverTarget("postgresql (pg)", serverUrl, "pg"),
        serverTarget("postgresql (neon driver: HTTP queries, WebSocket transactions)", serverUrl, "neon"),
      ]
    : []),
];

/**
 * The databases a feature's suite runs on: PGlite, and with `TEST_DATABASE_URL` that PostgreSQL
 * through Neon's driver, production's. A feature's SQL meets the same server engine whichever driver
 * carries it; what the driver changes (its types, transactions over a WebSocket, one HTTP request a
 * query with no session between queries) is the data layer's contract, run on both drivers by the
 * suites that import `databaseTargets` (data layer, migrations, group commit, concurrency). `pg`
 * also carries every query of the browser tests (`npm start`) and the bundled functions' check.
 * Running each feature suite on both drivers ran about 170 tests a second time, the same SQL on the
 * same engine (issue 38 point 6; decision 0098).
 */
export const featureDatabaseTargets: DatabaseTarget[] = databaseTargets.filter((target) => target.driver !== "pg");

function serverTarget(name: string, url: string, driver: "pg" | "neon"): DatabaseTarget {
  return {
    name,
    driver,
    create: () => createServerDatabase(url, driver),
    createMigrated: async () => createServerDatabase(url, driver, await migratedTemplate(url)),
  };
}

let template: Promise<string> | undefined;

/**
 * The name of a server database with every migration applied, made once per set of migrations and
 * copied by `CREATE DATABASE … TEMPLATE` for each suite: 0.46 s a copy against 3.3 s to apply the
 * 50 migrations on a loaded machine (issue 38 point 6), and about 35 suites open two each (pg, Neon).
 * Made under an advisory lock and renamed into place whole, so parallel workers (and checkouts)
 * wait for one another and never copy a half-migrated one. Old ones are left for a later clean-up:
 * another checkout with other migrations may be copying its own at this moment.
 */
function migratedTemplate(url: string): Promise<string> {
  template ??= (async () => {
    const migrations = await readMigrations();
    const name = `nf_template_${createHash("sha256").update(JSON.stringify(migrations)).digest("hex").slice(0, 16)}`;
    const admin = await connectDatabase(url, { driver: "pg", maxConnections: 1 });
    try {
      await admin.query("SELECT pg_advisory_lock($1)", [templateLockKey]);
      const { rows } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (rows.length === 0) {
        const aside = `${name}_${randomBytes(4).toString("hex")}`;
        await admin.exec(`CREATE DATABASE ${aside}`);
        const db = await connectDatabase(databaseUrl(url, aside), { driver: "pg" });
        await applyMigrations(db, migrations).finally(() => db.close());
        await connectionsGone(admin, aside);
        await admin.exec(`ALTER DATABASE ${aside} RENAME TO ${name}`);
      }
      return name;
    } finally {
      await admin.query("SELECT pg_advisory_unlock($1)", [templateLockKey]).catch(() => undefined);
      await admin.close();
    }
  })();
  return template;
}

// Any fixed number apart from the migrations' own lock.
const templateLockKey = 7_204_174;

function databaseUrl(url: string, name: string): string {
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return dbUrl.toString();
}

/**
 * A fresh PGlite booted from a tarball of the `kind` database (empty, or every migration applied),
 * made once per set of migrations and kept in the temp folder. Booting from it takes about 0.5 s,
 * against 1.4–4 s for a bare boot plus 0.2 s of migrations, and most suites open several
 * databases (issue 38, point 6; decision 0047).
 */
async function pgliteFrom(kind: "empty" | "migrated", prepare: (db: SqlExecutor) => Promise<void>): Promise<TestDatabase> {
  const db = await createPgliteExecutor(undefined, { from: await snapshot(kind, prepare) });
  return { db, drop: () => db.close() };
}

const snapshots = new Map<string, Promise<Blob>>();

function snapshot(kind: string, prepare: (db: SqlExecutor) => Promise<void>): Promise<Blob> {
  const made = snapshots.get(kind) ?? readOrMakeSnapshot(kind, prepare);
  snapshots.set(kind, made);
  return made;
}

async function readOrMakeSnapshot(kind: string, prepare: (db: SqlExecutor) => Promise<void>): Promise<Blob> {
  // Keyed by the migrations and the installed PGlite: a new migration or version makes a new one.
  const pglitePackage = await stat(new URL("../../node_modules/@electric-sql/pglite/package.json", import.meta.url));
  const key = createHash("sha256")
    .update(JSON.stringify([kind, snapshotShape, pglitePackage.size, pglitePackage.mtimeMs, await readMigrations()]))
    .digest("hex")
    .slice(0, 16);
  const folder = join(tmpdir(), "no-filter-pglite");
  const file = join(folder, `${kind}-${key}.tar`);
  const kept = await readFile(file).catch(() => undefined);
  if (kept) return new Blob([new Uint8Array(kept)]);
  const made = await pgliteSnapshot(async (db) => {
    await prepare(db);
    await withoutTemplates(db);
  });
  // Written aside and renamed: a parallel worker reads either no file or a whole one.
  await mkdir(folder, { recursive: true });
  const aside = `${file}.${String(process.pid)}.${randomBytes(4).toString("hex")}`;
  await writeFile(aside, new Uint8Array(await made.arrayBuffer()));
  await rename(aside, file);
  return made;
}

/** Names how a snapshot is made: a change to `withoutTemplates` makes new ones. */
const snapshotShape = "no templates";

/**
 * Drops `template0` and `template1` from a snapshot: the tests' databases run in `postgres` and never
 * create a database, and the two are 15 of the tarball's 45 MB. Booting from the smaller one takes
 * about a third less time and CPU (395 → 263 ms, 0.53 → 0.35 CPU-s a boot, 2026-11-29), and a full
 * vitest run boots about 120 (issue 38 point 6).
 */
async function withoutTemplates(db: SqlExecutor): Promise<void> {
  for (const template of ["template0", "template1"]) {
    await db.exec(`ALTER DATABASE ${template} IS_TEMPLATE false`);
    await db.exec(`DROP DATABASE ${template}`);
  }
  await db.exec("CHECKPOINT");
}

/** A fresh server database, empty or a copy of `template`. */
async function createServerDatabase(url: string, driver: "pg" | "neon", template?: string): Promise<TestDatabase> {
  const admin = await connectDatabase(url, { driver: "pg", maxConnections: 1 });
  const name = `nf_test_${randomBytes(6).toString("hex")}`;
  await admin.exec(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  const dbUrl = databaseUrl(url, name);
  const proxy = driver === "neon" ? await startNeonWsProxy() : undefined;
  const http = driver === "neon" ? await startNeonHttpEndpoint() : undefined;
  const db = await connectDatabase(dbUrl, {
    driver,
    ...(proxy && { neonWsProxy: proxy.address }),
    ...(http && { neonHttpEndpoint: http.url }),
  });
  return {
    db,
    url: dbUrl,
    ...(http && { httpQueries: http.queries }),
    async drop() {
      await db.close();
      await proxy?.close();
      await http?.close();
      await connectionsGone(admin, name);
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}

/**
 * Waits (up to `timeoutMs`) until no session is connected to database `name`. A pool's close()
 * resolves before the server has seen its connections go; dropping WITH (FORCE) then cuts them,
 * which the driver reports as an idle-connection error.
 */
async function connectionsGone(admin: SqlExecutor, name: string, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await admin.query<{ sessions: number }>("SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE datname = $1", [name]);
    if ((rows[0]?.sessions ?? 0) === 0 || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** An embedded database with every migration applied: the default for domain and handler tests. */
export async function createMigratedDatabase(): Promise<SqlExecutor> {
  return (await pglite.createMigrated()).db;
}
