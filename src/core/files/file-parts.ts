import type { FileMeta, FileStore } from "./file-store.ts";

/**
 * A file too big to hold in memory (a backup archive), stored in parts under a folder key
 * (`backups/2026-11-24-7/` → `…/part-00001`, `…/part-00002`, …): written as its bytes stream in,
 * read back part by part. Netlify Blobs' `set` takes whole bytes, so parts are how one object of
 * hundreds of megabytes is written and read with flat memory. Why: docs/decisions/0040-streaming-backups.md.
 */
export const filePartBytes = 8 * 1024 * 1024;

export const isPartsFolder = (key: string): boolean => key.endsWith("/");
const partKey = (folderKey: string, part: number) => `${folderKey}part-${String(part).padStart(5, "0")}`;

/**
 * Stores a stream of bytes as parts of exactly `partBytes` (the last one shorter: a chunk larger than
 * what a part still takes is cut), so that every part can be downloaded on its own under a function
 * response's limit; answers the total size and the count.
 */
export async function putParts(
  files: FileStore,
  folderKey: string,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  meta: FileMeta,
  partBytes = filePartBytes,
): Promise<{ bytes: number; parts: number }> {
  if (!isPartsFolder(folderKey)) throw new Error(`Not a folder key: ${folderKey}`);
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  let parts = 0;
  const flush = async () => {
    parts += 1;
    await files.put(partKey(folderKey, parts), new Uint8Array(Buffer.concat(pending)), meta);
    pending = [];
    pendingBytes = 0;
  };
  for await (const chunk of chunks) {
    bytes += chunk.byteLength;
    let rest = chunk;
    while (rest.byteLength > 0) {
      const taken = rest.subarray(0, partBytes - pendingBytes);
      pending.push(taken);
      pendingBytes += taken.byteLength;
      rest = rest.subarray(taken.byteLength);
      if (pendingBytes === partBytes) await flush();
    }
  }
  if (pendingBytes > 0 || parts === 0) await flush();
  return { bytes, parts };
}

/** The keys of a folder's parts, in order (`part-00001` first). */
export async function partKeys(files: FileStore, folderKey: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of files.list(`${folderKey}part-`)) keys.push(key);
  return keys.sort();
}

/** True when a parts folder holds at least its first part. */
export async function hasParts(files: FileStore, folderKey: string): Promise<boolean> {
  for await (const key of files.list(`${folderKey}part-`)) if (key) return true;
  return false;
}

/** The stored bytes again, one part at a time, in order. */
export async function* readParts(files: FileStore, folderKey: string): AsyncGenerator<Uint8Array> {
  for (const key of await partKeys(files, folderKey)) {
    const part = await files.get(key);
    if (!part) throw new Error(`A part of ${folderKey} is gone (${key})`);
    yield part.data;
  }
}

/** Deletes every part (clean-up: a part that cannot be deleted is logged, never thrown). */
export async function deleteParts(files: FileStore, folderKey: string): Promise<void> {
  if (!isPartsFolder(folderKey)) throw new Error(`Not a folder key: ${folderKey}`);
  const keys: string[] = [];
  for await (const key of files.list(folderKey)) keys.push(key);
  for (const key of keys) await files.delete(key).catch((error: unknown) => console.error(`[files] could not delete ${key}:`, error));
}
