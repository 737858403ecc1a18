import { afterEach, describe, expect, it } from "vitest";
import { databaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { connectDatabase } from "../../adapters/connect-database.ts";
import { applyMigrations, type Migration } from "./migrations.ts";

const migrations: Migration[] = [
  { name: "0001_things", sql: "CREATE TABLE things (id integer PRIMARY KEY, name text NOT NULL)" },
  { name: "0002_more", sql: "ALTER TABLE things ADD COLUMN size integer" },
];

describe.each(databaseTargets)("migration runner on $name", (target) => {
  let testDb: TestDatabase | undefined;
  afterEach(async () => {
    await testDb?.drop();
    testDb = undefined;
  });

  it("leaves nothing of a failing migration and applies nothing after it", async () => {
    testDb = await target.create();
    const broken: Migration = {
      name: "0002_broken",
      sql: "ALTER TABLE things ADD COLUMN half integer; ALTER TABLE nowhere ADD COLUMN x integer",
    };
    await expect(applyMigrations(testDb.db, [migrations[0] as Migration, broken, { name: "0003_after", sql: "SELECT 1" }])).rejects.toThrow(
      /0002_broken failed and was rolled back/,
    );
    const columns = await testDb.db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'things' ORDER BY column_name",
    );
    expect(columns.rows.map((row) => row.column_name)).toEqual(["id", "name"]);
    const recorded = await testDb.db.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY name");
    expect(recorded.rows.map((row) => row.name)).toEqual(["0001_things"]);
  });

  it.runIf(target.driver !== "pglite")("lets two concurrent runners apply each migration exactly once", async () => {
    testDb = await target.create();
    const second = await connectDatabase(testDb.url as string, { driver: "pg" });
    try {
      const [a, b] = await Promise.all([applyMigrations(testDb.db, migrations), applyMigrations(second, migrations)]);
      expect([...a, ...b].sort()).toEqual(["0001_things", "0002_more"]);
    } finally {
      await second.close();
    }
  });
});
