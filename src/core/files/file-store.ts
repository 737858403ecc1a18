export interface StoredFile {
  data: Uint8Array;
  contentType: string;
  /** The name the file had when uploaded (used for downloads). */
  fileName?: string;
}

export interface FileMeta {
  contentType: string;
  fileName?: string;
}

/**
 * Images, resource files and thumbnails. Keys are opaque paths such as `images/<uuid>.png`.
 * Netlify Blobs implements it in production (src/adapters/blobs-file-store.ts).
 */
export interface FileStore {
  put(key: string, data: Uint8Array, meta: FileMeta): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  delete(key: string): Promise<void>;
  /** Every key under `prefix` (e.g. `images/`), in pages as the store gives them: a backup reads them all. */
  list(prefix: string): AsyncIterable<string>;
}

/**
 * Removes files after the change that orphaned them has succeeded (or failed): clean-up, so a file
 * that can't be deleted is logged, never a reason to fail the call.
 */
export async function deleteFilesQuietly(files: FileStore, keys: (string | null | undefined)[]): Promise<void> {
  const present = keys.filter((key): key is string => Boolean(key));
  const results = await Promise.allSettled(present.map((key) => files.delete(key)));
  for (const [index, result] of results.entries()) {
    if (result.status === "rejected") console.error(`[files] could not delete ${String(present[index])}:`, result.reason);
  }
}
