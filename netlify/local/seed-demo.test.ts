import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../../tests/support/test-databases.ts";
import { startTestFileStore } from "../../tests/support/test-file-store.ts";
import type { SqlExecutor } from "../../src/core/db/sql-executor.ts";
import type { FileStore } from "../../src/core/files/file-store.ts";
import { imageSizeOf } from "../../src/core/files/image-sizes.ts";
import { settingKeys } from "../../src/core/settings/settings.schema.ts";
import sharp from "sharp";
import { seedDemoContent } from "./seed-demo.ts";

let db: SqlExecutor;
let store: Awaited<ReturnType<typeof startTestFileStore>>;
let files: FileStore;
beforeEach(async () => {
  db = await createMigratedDatabase();
  store = await startTestFileStore();
  files = store.files;
});
afterEach(async () => {
  await db.close();
  await store.stop();
});

const now = () => new Date("2026-11-22T12:00:00Z");

describe("demo content", () => {
  it("fills an empty database with posts, a draft, four real files and the settings", async () => {
    expect(await seedDemoContent({ db, files, now })).toBe(true);

    const posts = await db.query<{ category: string; published: boolean; content: string; featured_image_key: string }>(
      "SELECT category, published, content, featured_image_key FROM posts",
    );
    const published = posts.rows.filter((post) => post.published);
    expect(published.length).toBeGreaterThanOrEqual(3);
    expect(new Set(published.map((post) => post.category)).size).toBe(published.length);
    for (const post of published) {
      expect(post.content).toMatch(/<h2>/);
      expect(post.content).toMatch(/<(ul|ol)>[\s\S]*<li>/);
      expect((post.content.match(/<p>/g) ?? []).length).toBeGreaterThanOrEqual(3);
      expect((await files.get(post.featured_image_key))?.contentType).toBe("image/png");
    }
    expect(posts.rows.filter((post) => !post.published)).toHaveLength(1);

    const downloads = await db.query<{ category: string; file_name: string; file_key: string; file_size: number }>(
      "SELECT category, file_name, file_key, file_size FROM downloads",
    );
    expect(downloads.rows).toHaveLength(4);
    expect(new Set(downloads.rows.map((row) => row.category)).size).toBe(4);
    const signatures: Record<string, number[]> = {
      pdf: [0x25, 0x50, 0x44, 0x46], // %PDF
      docx: [0x50, 0x4b, 0x03, 0x04], // zip container
      xlsx: [0x50, 0x4b, 0x03, 0x04],
      zip: [0x50, 0x4b, 0x03, 0x04],
    };
    const extensions = downloads.rows.map((row) => row.file_name.split(".").pop() ?? "").sort();
    expect(extensions).toEqual(["docx", "pdf", "xlsx", "zip"]);
    for (const row of downloads.rows) {
      const stored = await files.get(row.file_key);
      const extension = row.file_name.split(".").pop() ?? "";
      expect(stored?.data.byteLength).toBe(row.file_size);
      expect([...(stored?.data.subarray(0, 4) ?? [])]).toEqual(signatures[extension]);
      expect(stored?.fileName).toBe(row.file_name);
    }

    // Every setting the site knows, each with its demo or default value.
    const settings = await db.query<{ key: string }>("SELECT key FROM site_settings ORDER BY key");
    expect(settings.rows.map((row) => row.key)).toEqual([...settingKeys].sort());
  });

  it("stores every cover and thumbnail as an upload is, its own size in its name (the pages set width and height from it)", async () => {
    await seedDemoContent({ db, files, now });
    const { rows } = await db.query<{ key: string }>(
      "SELECT featured_image_key AS key FROM posts UNION ALL SELECT thumbnail_key AS key FROM downloads",
    );
    expect(rows).toHaveLength(8);
    for (const { key } of rows) {
      const stored = await files.get(key);
      const { width, height } = await sharp(stored?.data).metadata();
      expect(imageSizeOf(key), key).toEqual({ width, height });
    }
  });

  it("leaves a database with content alone", async () => {
    await db.query("INSERT INTO site_settings (key, value) VALUES ('hero_title', 'Mine')");
    expect(await seedDemoContent({ db, files, now })).toBe(false);
    expect((await db.query("SELECT 1 FROM posts")).rows).toHaveLength(0);
  });

  it("removes the files it stored when the rows can't be written", async () => {
    const stored: string[] = [];
    const deleted: string[] = [];
    const tracking: FileStore = {
      put: async (key, data, meta) => {
        stored.push(key);
        await files.put(key, data, meta);
      },
      get: (key) => files.get(key),
      delete: async (key) => {
        deleted.push(key);
        await files.delete(key);
      },
      list: (prefix) => files.list(prefix),
    };
    // Posts can't be inserted: the seed must fail and take its files with it.
    await db.exec("ALTER TABLE posts ADD CONSTRAINT no_posts CHECK (false)");
    await expect(seedDemoContent({ db, files: tracking, now })).rejects.toThrow(/no_posts/);
    expect(stored.length).toBeGreaterThan(0);
    expect(deleted.sort()).toEqual(stored.sort());
    for (const key of stored) expect(await files.get(key)).toBeNull();
    expect((await db.query("SELECT 1 FROM site_settings")).rows).toHaveLength(0);
  });
});
