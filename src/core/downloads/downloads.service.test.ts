import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import type { SqlExecutor } from "../db/sql-executor.ts";
import type { FileStore } from "../files/file-store.ts";
import {
  createDownload,
  deleteDownload,
  listDownloads,
  listDownloadsForAdmin,
  requestDownload,
  updateDownload,
  type DownloadsDeps,
} from "./downloads.service.ts";

const demoFiles = new URL("../../../netlify/local/demo-content/files/", import.meta.url);
const demoFile = async (name: string, as = name) => new File([await readFile(new URL(name, demoFiles))], as);
const form = { title: "Investor Pitch Checklist", description: "Everything to check before you pitch.", category: "Checklists" };

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

async function storedKeys(id: number) {
  const { rows } = await app.deps.db.query<{ file_key: string; thumbnail_key: string | null }>(
    "SELECT file_key, thumbnail_key FROM downloads WHERE id = $1",
    [id],
  );
  return rows[0];
}

/** A file store that remembers every key it was asked to store. */
function recordingFiles(files: FileStore): { files: FileStore; keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    files: { ...files, put: (key, data, meta) => (keys.push(key), files.put(key, data, meta)) },
  };
}

/** A database that fails every statement matching `pattern`, as a lost connection would. */
function failingDb(db: SqlExecutor, pattern: RegExp): SqlExecutor {
  return {
    ...db,
    query: (sql, params) => (pattern.test(sql) ? Promise.reject(new Error("connection lost")) : db.query(sql, params)),
  };
}

describe("downloads service", () => {
  it("creates a resource with its file and thumbnail, and lists it without storage keys", async () => {
    const before = app.rebuilds.count;
    const created = await createDownload(app.deps, {
      ...form,
      file: await demoFile("investor-pitch-checklist.pdf"),
      thumbnail: await demoFile("thumb-investor-pitch-checklist.png"),
    });
    expect(created).toMatchObject({ ...form, fileName: "investor-pitch-checklist.pdf", downloadCount: 0 });
    expect(created.thumbnailUrl).toMatch(/^\/api\/files\/images\/[0-9a-f-]{36}_600x400\.png$/);
    expect(created.thumbnailPath).toBe(created.thumbnailUrl);
    expect(app.rebuilds.count).toBe(before + 1);

    const keys = await storedKeys(created.id);
    expect(keys?.file_key).toMatch(/^downloads\/[0-9a-f-]{36}\.pdf$/);
    expect((await app.deps.files.get(keys?.file_key ?? ""))?.contentType).toBe("application/pdf");

    const listed = (await listDownloads(app.deps)).find((item) => item.id === created.id);
    expect(listed && Object.keys(listed).sort()).toEqual([
      "category",
      "currency",
      "description",
      "downloadCount",
      "fileName",
      "id",
      "price",
      "thumbnailAlt",
      "thumbnailUrl",
      "title",
    ]);
    const admin = (await listDownloadsForAdmin(app.deps)).find((item) => item.id === created.id);
    expect(admin?.thumbnailPath).toBe(created.thumbnailUrl);
  });

  it("refuses a create without a file", async () => {
    await expect(createDownload(app.deps, form)).rejects.toThrow("Please select a file to upload.");
  });

  it("deletes the stored files again when the row cannot be written", async () => {
    const recording = recordingFiles(app.deps.files);
    const deps: DownloadsDeps = { ...app.deps, files: recording.files, db: failingDb(app.deps.db, /INSERT INTO downloads/) };
    await expect(
      createDownload(deps, {
        ...form,
        file: await demoFile("investor-pitch-checklist.pdf"),
        thumbnail: await demoFile("thumb-investor-pitch-checklist.png"),
      }),
    ).rejects.toThrow("connection lost");
    expect(recording.keys).toHaveLength(2);
    for (const key of recording.keys) expect(await app.deps.files.get(key)).toBeNull();
  });

  it("keeps the current files on an update without new ones, and replaces them otherwise", async () => {
    const created = await createDownload(app.deps, {
      ...form,
      file: await demoFile("cold-email-templates.docx"),
      thumbnail: await demoFile("thumb-cold-email-templates.png"),
    });
    const original = await storedKeys(created.id);
    const kept = await updateDownload(app.deps, created.id, { ...form, title: "Renamed" });
    expect(kept).toMatchObject({ title: "Renamed", fileName: "cold-email-templates.docx", thumbnailUrl: created.thumbnailUrl });
    expect(await storedKeys(created.id)).toEqual(original);

    const replaced = await updateDownload(app.deps, created.id, {
      ...form,
      file: await demoFile("cash-flow-forecast.xlsx"),
      thumbnail: await demoFile("thumb-cash-flow-forecast.png"),
    });
    expect(replaced.fileName).toBe("cash-flow-forecast.xlsx");
    const now = await storedKeys(created.id);
    expect(now?.file_key).not.toBe(original?.file_key);
    expect(await app.deps.files.get(original?.file_key ?? "")).toBeNull();
    expect(await app.deps.files.get(original?.thumbnail_key ?? "")).toBeNull();
    expect(await app.deps.files.get(now?.file_key ?? "")).not.toBeNull();
  });

  it("keeps the old files and drops the new ones when an update fails", async () => {
    const created = await createDownload(app.deps, { ...form, file: await demoFile("founder-starter-kit.zip") });
    const original = await storedKeys(created.id);
    const recording = recordingFiles(app.deps.files);
    const deps: DownloadsDeps = { ...app.deps, files: recording.files, db: failingDb(app.deps.db, /UPDATE downloads AS d/) };
    await expect(updateDownload(deps, created.id, { ...form, file: await demoFile("investor-pitch-checklist.pdf") })).rejects.toThrow();
    expect(await app.deps.files.get(recording.keys[0] ?? "")).toBeNull();
    expect(await app.deps.files.get(original?.file_key ?? "")).not.toBeNull();
    await expect(updateDownload(app.deps, 999_999, { ...form, file: await demoFile("investor-pitch-checklist.pdf") })).rejects.toThrow(
      "This resource no longer exists.",
    );
  });

  it("deletes the row, then its file and thumbnail", async () => {
    const created = await createDownload(app.deps, {
      ...form,
      file: await demoFile("founder-starter-kit.zip"),
      thumbnail: await demoFile("thumb-founder-starter-kit.png"),
    });
    const keys = await storedKeys(created.id);
    await deleteDownload(app.deps, created.id);
    expect(await storedKeys(created.id)).toBeUndefined();
    expect(await app.deps.files.get(keys?.file_key ?? "")).toBeNull();
    expect(await app.deps.files.get(keys?.thumbnail_key ?? "")).toBeNull();
    await expect(deleteDownload(app.deps, created.id)).rejects.toThrow("This resource no longer exists.");
  });

  it("counts 50 parallel requests exactly and records each subscriber once", async () => {
    const created = await createDownload(app.deps, { ...form, file: await demoFile("investor-pitch-checklist.pdf") });
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        requestDownload(app.deps, { id: created.id, email: `parallel${i % 5}@example.com`, clientIp: `198.51.100.${i}` }),
      ),
    );
    const listed = (await listDownloads(app.deps)).find((item) => item.id === created.id);
    expect(listed?.downloadCount).toBe(50);
    const { rows } = await app.deps.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM subscribers WHERE email LIKE 'parallel%' AND source = 'download'",
    );
    expect(rows[0]?.n).toBe(5);
  });

  it("throttles requests per address with the given limit", async () => {
    const created = await createDownload(app.deps, { ...form, file: await demoFile("investor-pitch-checklist.pdf") });
    const limit = { bucket: "download-request", max: 2, windowMs: 60_000 };
    const ask = () => requestDownload(app.deps, { id: created.id, email: "x@example.com", clientIp: "192.0.2.99" }, limit);
    await ask();
    await ask();
    await expect(ask()).rejects.toMatchObject({ status: 429 });
  });
});
