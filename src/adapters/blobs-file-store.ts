/**
 * Adapters are the only code that imports a platform or driver package (Netlify Blobs, `pg`,
 * Neon, PGlite). `src/core` sees just the seams they implement (`FileStore`, `SqlExecutor`), so
 * domain code runs unchanged on every backend and the composition roots choose which one.
 */
import { getStore } from "@netlify/blobs";
import type { FileMeta, FileStore } from "../core/files/file-store.ts";

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
    async *list(prefix) {
      for await (const page of store().list({ prefix, paginate: true })) for (const blob of page.blobs) yield blob.key;
    },
  };
}
