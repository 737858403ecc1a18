import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestFileStore } from "../../tests/support/test-file-store.ts";
import type { FileStore } from "../core/files/file-store.ts";

let store: Awaited<ReturnType<typeof startTestFileStore>>;
let files: FileStore;
beforeAll(async () => {
  store = await startTestFileStore();
  files = store.files;
});
afterAll(async () => {
  await store.stop();
});

describe("file store over Netlify Blobs", () => {
  it("stores bytes with their type and name, reads them back, and deletes them", async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    await files.put("images/a.png", bytes, { contentType: "image/png", fileName: "a.png" });
    const stored = await files.get("images/a.png");
    expect(stored).toEqual({ data: bytes, contentType: "image/png", fileName: "a.png" });
    await files.delete("images/a.png");
    expect(await files.get("images/a.png")).toBeNull();
  });

  it("answers null for a key that was never stored", async () => {
    expect(await files.get("downloads/missing.pdf")).toBeNull();
  });
});
