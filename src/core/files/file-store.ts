import { getStore } from "@netlify/blobs";

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

/** Images, resource files and thumbnails. Keys are opaque paths such as `images/<uuid>.png`. */
export interface FileStore {
  put(key: string, data: Uint8Array, meta: FileMeta): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  delete(key: string): Promise<void>;
}

/**
 * Where the store lives when not inside Netlify's runtime (tests against a local BlobsServer).
 * Inside Netlify Functions, `npm start` and `npm run dev` the runtime supplies all of this.
 */
export interface BlobsConnection {
  siteID: string;
  token: string;
  edgeURL: string;
}

export const fileStoreName = "files";

/** A file store over Netlify Blobs (strong consistency: an upload is readable at once). */
export function blobsFileStore(connection?: BlobsConnection): FileStore {
  // Opened on first use: a site build reads no files and runs where no Blobs context exists.
  let opened: ReturnType<typeof getStore> | undefined;
  const store = () =>
    (opened ??= getStore({
      name: fileStoreName,
      consistency: "strong",
      ...(connection && { ...connection, uncachedEdgeURL: connection.edgeURL }),
    }));
  return {
    async put(key, data, meta) {
      const copy = new Uint8Array(data);
      await store().set(key, copy.buffer, { metadata: { ...meta } });
    },
    async get(key) {
      const entry = await store().getWithMetadata(key, { type: "arrayBuffer" });
      if (!entry) return null;
      const meta = entry.metadata as Partial<FileMeta>;
      return {
        data: new Uint8Array(entry.data),
        contentType: meta.contentType ?? "application/octet-stream",
        ...(meta.fileName && { fileName: meta.fileName }),
      };
    },
    async delete(key) {
      await store().delete(key);
    },
  };
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
