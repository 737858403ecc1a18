import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { BlobsServer } from "@netlify/blobs/server";
import { blobsFileStore } from "../../src/adapters/blobs-file-store.ts";
import type { FileStore } from "../../src/core/files/file-store.ts";

/** A real Netlify Blobs server on a temp folder, and a file store talking to it. */
export async function startTestFileStore(): Promise<{ files: FileStore; stop(): Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), "nf-blobs-"));
  const token = "test-token";
  const server = new BlobsServer({ directory, token });
  const { port } = await server.start();
  const files = blobsFileStore({ siteID: "test-site", token, edgeURL: `http://localhost:${String(port)}` });
  return {
    files,
    async stop() {
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
