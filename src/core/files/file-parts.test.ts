import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestFileStore } from "../../../tests/support/test-file-store.ts";
import { deleteParts, hasParts, putParts, readParts } from "./file-parts.ts";

let store: Awaited<ReturnType<typeof startTestFileStore>>;
beforeAll(async () => {
  store = await startTestFileStore();
});
afterAll(async () => {
  await store.stop();
});

function* chunksOf(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

describe("a file stored in parts (over Netlify Blobs)", () => {
  it("stores a stream in parts of exactly the part size (the last shorter), reads it back in order, and deletes every part", async () => {
    const bytes = new Uint8Array(25_000).map((_, index) => (index * 7) % 251);
    const { files } = store;
    expect(await putParts(files, "backups/test/", chunksOf(bytes, 3000), { contentType: "application/zip" }, 10_000)).toEqual({
      bytes: 25_000,
      parts: 3,
    });
    const keys: string[] = [];
    for await (const key of files.list("backups/test/")) keys.push(key);
    expect(keys.sort()).toEqual(["backups/test/part-00001", "backups/test/part-00002", "backups/test/part-00003"]);
    const back: Uint8Array[] = [];
    for await (const part of readParts(files, "backups/test/")) back.push(part);
    expect(back.map((part) => part.byteLength)).toEqual([10_000, 10_000, 5000]);
    expect(new Uint8Array(Buffer.concat(back))).toEqual(bytes);
    expect(await hasParts(files, "backups/test/")).toBe(true);
    await deleteParts(files, "backups/test/");
    expect(await hasParts(files, "backups/test/")).toBe(false);
  });

  it("cuts a chunk larger than a part (a big file passes whole through the zip) so that no part is over the size", async () => {
    const bytes = new Uint8Array(25_000).map((_, index) => (index * 13) % 251);
    const chunks = [bytes.subarray(0, 4000), bytes.subarray(4000, 24_000), bytes.subarray(24_000)];
    expect(await putParts(store.files, "backups/big/", chunks, { contentType: "application/zip" }, 10_000)).toEqual({ bytes: 25_000, parts: 3 });
    const back: Uint8Array[] = [];
    for await (const part of readParts(store.files, "backups/big/")) back.push(part);
    expect(back.map((part) => part.byteLength)).toEqual([10_000, 10_000, 5000]);
    expect(new Uint8Array(Buffer.concat(back))).toEqual(bytes);
    await deleteParts(store.files, "backups/big/");
  });

  it("refuses a key that is not a folder", async () => {
    await expect(putParts(store.files, "backups/x.zip", chunksOf(new Uint8Array(1), 1), { contentType: "application/zip" })).rejects.toThrow(
      "Not a folder key",
    );
  });
});
