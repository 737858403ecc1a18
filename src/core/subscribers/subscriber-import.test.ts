import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { badRow, csvOfSize, goodRow } from "../../../tests/support/import-in-small-heap.ts";
import { PayloadTooLargeError, ValidationError } from "../errors.ts";
import { maxFileBytes } from "../files/upload-limits.ts";
import { importSubscribers, missingEmailColumnMessage } from "./subscriber-import.ts";
import { importConsentWording } from "./subscriber-import.schema.ts";

const now = new Date("2026-11-23T12:00:00.000Z");

describe.each(featureDatabaseTargets)("subscriber import on $name", (target) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await target.createMigrated();
  });
  afterAll(async () => {
    await testDb.drop();
  });

  const importCsv = (csv: string) => importSubscribers({ db: testDb.db, now: () => now }, { file: new Blob([csv]), wording: importConsentWording });
  const row = async (email: string) =>
    (
      await testDb.db.query<{ status: string; source: string; subscribed_at: Date; confirmed_at: Date | null; consents: number }>(
        `SELECT status, source, subscribed_at, confirmed_at,
           (SELECT count(*)::int FROM subscriber_consents c WHERE c.subscriber_id = s.id) AS consents
         FROM subscribers s WHERE lower(email) = $1`,
        [email],
      )
    ).rows[0];

  it("imports new addresses as active with source import and a consent record, keeping a given date", async () => {
    const result = await importCsv(
      "\uFEFFName,EMAIL,Subscribed_At,Source\r\n" +
        '"Doe, Jane",Jane@Example.com,2024-03-01T09:30:00Z,mailchimp\r\n' +
        '"Roe, ""Rick""",rick@example.com,,substack\r\n' +
        "Sam,sam@example.com,2024-05-06 07:08:09+02:00,\r\n",
    );
    expect(result).toEqual({ imported: 3, skipped: 0, invalid: [], invalidCount: 0 });
    expect(await row("jane@example.com")).toEqual({
      status: "active",
      source: "import",
      subscribed_at: new Date("2024-03-01T09:30:00Z"),
      confirmed_at: now,
      consents: 1,
    });
    expect((await row("rick@example.com"))?.subscribed_at).toEqual(now);
    expect((await row("sam@example.com"))?.subscribed_at).toEqual(new Date("2024-05-06T05:08:09Z"));
    const { rows: consents } = await testDb.db.query<{ source: string; wording: string; asked_at: Date; confirmed_at: Date }>(
      "SELECT c.source, c.wording, c.asked_at, c.confirmed_at FROM subscriber_consents c JOIN subscribers s ON s.id = c.subscriber_id WHERE s.email = 'jane@example.com'",
    );
    expect(consents).toEqual([{ source: "import", wording: importConsentWording, asked_at: new Date("2024-03-01T09:30:00Z"), confirmed_at: now }]);
  });

  it("skips addresses already here in any status, and repeats within the file; never re-activates anyone", async () => {
    await testDb.db.query(
      "INSERT INTO subscribers (email, source, status) VALUES ('Active@Example.com', 'newsletter', 'active'), ('pending@example.com', 'download', 'pending'), ('gone@example.com', 'newsletter', 'unsubscribed')",
    );
    const result = await importCsv(
      "email\nactive@example.com\nPENDING@example.com\ngone@example.com\nnew@example.com\nNew@Example.com\nnew@example.com\n",
    );
    expect(result).toEqual({ imported: 1, skipped: 5, invalid: [], invalidCount: 0 });
    expect((await row("active@example.com"))?.source).toBe("newsletter");
    expect(await row("pending@example.com")).toMatchObject({ status: "pending", source: "download", consents: 0 });
    expect(await row("gone@example.com")).toMatchObject({ status: "unsubscribed", consents: 0 });
    expect(await row("new@example.com")).toMatchObject({ status: "active", consents: 1 });
  });

  it("reports bad addresses and dates with their line numbers (the header is line 1) and imports the rest", async () => {
    const result = await importCsv(
      [
        "email,subscribed_at",
        "not-an-email,",
        '"spaced ok@example.com",2024-01-01',
        ",2024-01-01",
        "bad-date@example.com,yesterday",
        "feb30@example.com,2024-02-30",
        "future@example.com,2030-01-01",
        "fine@example.com,2024-01-01",
      ].join("\r\n"),
    );
    expect(result.imported).toBe(1);
    expect(result.skipped).toBe(0);
    expect(result.invalid.map((entry) => entry.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(result.invalid[0]?.reason).toBe('Invalid email address: "not-an-email"');
    expect(result.invalid[3]?.reason).toBe('Invalid subscribed_at date: "yesterday"');
    expect((await row("fine@example.com"))?.subscribed_at).toEqual(new Date("2024-01-01T00:00:00Z"));
  });

  it("refuses a file without an email column, or too large, and imports nothing", async () => {
    await expect(importCsv("name,address\nA,a@example.com\n")).rejects.toThrow(new ValidationError(missingEmailColumnMessage));
    await expect(importCsv("")).rejects.toThrow(ValidationError);
    const tooLarge = new Blob([new Uint8Array(maxFileBytes + 1)]);
    await expect(importSubscribers({ db: testDb.db, now: () => now }, { file: tooLarge, wording: "x" })).rejects.toThrow(PayloadTooLargeError);
  });

  it("records one subscriber.created per new person, in the import's transaction, only when an endpoint wants it", async () => {
    const events = async () =>
      (
        await testDb.db.query<{ payload: string; subscriber_id: number; deliveries: number }>(
          `SELECT v.payload, v.subscriber_id, (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = v.id) AS deliveries
             FROM webhook_events v WHERE v.type = 'subscriber.created' ORDER BY v.id`,
        )
      ).rows;
    // No endpoint wants the type: nothing written.
    await testDb.db.query(
      "INSERT INTO webhook_endpoints (url, events, secret, created_at, updated_at) VALUES ('https://crm.example/hook', '{post.published}', 'whsec_x', now(), now())",
    );
    await importCsv("email\nhook-none@example.com\n");
    expect(await events()).toEqual([]);

    await testDb.db.query(
      "INSERT INTO webhook_endpoints (url, events, secret, created_at, updated_at) VALUES ('https://crm.example/a', '{subscriber.created}', 'whsec_a', now(), now()), ('https://crm.example/b', '{subscriber.created,subscriber.confirmed}', 'whsec_b', now(), now())",
    );
    let recorded = 0;
    const deps = { db: testDb.db, now: () => now, webhooksRecorded: () => recorded++ };
    const result = await importSubscribers(deps, {
      file: new Blob(["email\nhook-none@example.com\nHook-A@example.com\nhook-b@example.com\nhook-a@example.com\nbad\n"]),
      wording: importConsentWording,
    });
    expect(result.imported).toBe(2);
    const recordedEvents = await events();
    expect(recordedEvents.map((event) => ({ ...event, payload: JSON.parse(event.payload) as unknown }))).toEqual(
      ["hook-a@example.com", "hook-b@example.com"].map((email, index) => ({
        payload: {
          type: "subscriber.created",
          timestamp: now.toISOString(),
          data: { id: recordedEvents[index]?.subscriber_id, email, status: "active" },
        },
        subscriber_id: recordedEvents[index]?.subscriber_id,
        deliveries: 2,
      })),
    );
    expect(recorded).toBe(1);

    // An import that fails leaves no event behind: they commit with the people or not at all.
    await testDb.db.query("ALTER TABLE subscriber_consents ADD CONSTRAINT wording_given CHECK (wording <> '') NOT VALID");
    await expect(importSubscribers(deps, { file: new Blob(["email\nhook-c@example.com\n"]), wording: "" })).rejects.toThrow();
    await testDb.db.query("ALTER TABLE subscriber_consents DROP CONSTRAINT wording_given");
    expect(await events()).toHaveLength(2);
    await testDb.db.query("DELETE FROM webhook_endpoints");
  });

  it("imports 10,000 rows in one go", async () => {
    const lines = ["email,subscribed_at"];
    for (let i = 0; i < 10_000; i++) lines.push(`bulk${String(i)}@example.com,2025-01-01T00:00:00Z`);
    const csv = `${lines.join("\r\n")}\r\n`;
    const started = performance.now();
    const result = await importCsv(csv);
    const ms = performance.now() - started;
    console.info(`[import] 10,000 rows (${String(Math.round(csv.length / 1024))} KB) on ${target.name}: ${ms.toFixed(0)} ms`);
    expect(result).toEqual({ imported: 10_000, skipped: 0, invalid: [], invalidCount: 0 });
    const { rows } = await testDb.db.query<{ subscribers: number; consents: number }>(
      "SELECT (SELECT count(*)::int FROM subscribers WHERE email LIKE 'bulk%') AS subscribers, (SELECT count(*)::int FROM subscriber_consents c JOIN subscribers s ON s.id = c.subscriber_id WHERE s.email LIKE 'bulk%') AS consents",
    );
    expect(rows[0]).toEqual({ subscribers: 10_000, consents: 10_000 });
    expect(await importCsv(csv)).toEqual({ imported: 0, skipped: 10_000, invalid: [], invalidCount: 0 });
  });
});

/**
 * Decision 0062: the file is read as a stream, so a file costs a batch, not its rows. Each import
 * runs in a child whose V8 heap is capped (the embedded database and the modules take about 25 MB
 * of it): read whole, a 4 MB file of bad rows needs more than 64 MB, and a 2 MB file of good rows
 * more than 40 MB; streamed, each fits with room to spare. The good rows' file is the smaller one
 * because each of its rows is written (in a smaller heap it proves the same at half the rows).
 */
describe("subscriber import memory", () => {
  const imports = [
    { kind: "bad", row: badRow, bytes: maxFileBytes, heapMegabytes: 64 },
    { kind: "good", row: goodRow, bytes: 2 * 1024 * 1024, heapMegabytes: 40 },
  ] as const;
  const child = fileURLToPath(new URL("../../../tests/support/import-in-small-heap.ts", import.meta.url));

  it(`imports a 4 MB file of bad rows within a 64 MB heap, and a 2 MB file of good rows within a 40 MB one`, { timeout: 240_000 }, async () => {
    const results = await Promise.all(
      imports.map(async ({ kind, bytes, heapMegabytes }) => {
        const { stdout } = await promisify(execFile)(
          process.execPath,
          [`--max-old-space-size=${String(heapMegabytes)}`, child, kind, String(bytes)],
          {
            encoding: "utf8",
          },
        );
        return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as unknown;
      }),
    );
    const [bad, good] = imports.map(({ row, bytes }) => csvOfSize(row, bytes).rows);
    expect(results).toEqual([
      { rows: bad, imported: 0, skipped: 0, invalid: 100, invalidCount: bad },
      { rows: good, imported: good, skipped: 0, invalid: 0, invalidCount: 0 },
    ]);
  });
});
