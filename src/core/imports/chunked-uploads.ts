import { randomUUID } from "node:crypto";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import type { FileStore } from "../files/file-store.ts";

/**
 * A file larger than one request may carry (Netlify: about 4.5 MB) comes in parts: each part is
 * stored in Blobs as it arrives, and the run that reads the file reads the parts in order, so a
 * 100 MB export is never one request and never one buffer. The calls' shapes: upload.schema.ts.
 */

const folder = (id: string) => `uploads/${id}/`;
const startedKey = (id: string) => `${folder(id)}started`;
const completeKey = (id: string) => `${folder(id)}complete`;
const partKey = (id: string, part: number) => `${folder(id)}part-${String(part).padStart(5, "0")}`;

export async function startUpload(deps: { files: FileStore }): Promise<{ uploadId: string }> {
  const uploadId = randomUUID();
  await deps.files.put(startedKey(uploadId), new Uint8Array(), { contentType: "application/octet-stream" });
  return { uploadId };
}

async function exists(files: FileStore, key: string): Promise<boolean> {
  return (await files.get(key)) !== null;
}

export async function putUploadPart(deps: { files: FileStore }, uploadId: string, part: number, bytes: Uint8Array): Promise<void> {
  if (!(await exists(deps.files, startedKey(uploadId)))) throw new NotFoundError("Upload not found");
  if (await exists(deps.files, completeKey(uploadId))) throw new ConflictError("This upload is already complete");
  if (bytes.byteLength === 0) throw new ValidationError("A part may not be empty");
  await deps.files.put(partKey(uploadId, part), bytes, { contentType: "application/octet-stream" });
}

async function partKeys(files: FileStore, uploadId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of files.list(`${folder(uploadId)}part-`)) keys.push(key);
  return keys.sort();
}

/** Closes an upload: its parts must run from 1 without a gap. */
export async function completeUpload(deps: { files: FileStore }, uploadId: string): Promise<{ uploadId: string; parts: number }> {
  if (!(await exists(deps.files, startedKey(uploadId)))) throw new NotFoundError("Upload not found");
  const keys = await partKeys(deps.files, uploadId);
  if (keys.length === 0) throw new ValidationError("The upload has no parts");
  keys.forEach((key, index) => {
    if (key !== partKey(uploadId, index + 1)) throw new ValidationError(`Part ${String(index + 1)} is missing`);
  });
  await deps.files.put(completeKey(uploadId), new TextEncoder().encode(String(keys.length)), { contentType: "text/plain" });
  return { uploadId, parts: keys.length };
}

/** Checks that an upload is complete, for a run to read. */
export async function checkUploadComplete(deps: { files: FileStore }, uploadId: string): Promise<void> {
  if (!(await exists(deps.files, completeKey(uploadId)))) throw new ValidationError("The upload is not complete");
}

/** The key a run keeps for an upload (its folder), told apart from a single stored file. */
export const uploadFolderKey = folder;
export const isUploadFolder = (key: string): boolean => key.endsWith("/");

/** An upload's bytes, part by part in order. */
export async function* readUploadParts(files: FileStore, folderKey: string): AsyncGenerator<Uint8Array> {
  const id = folderKey.slice("uploads/".length, -1);
  for (const key of await partKeys(files, id)) {
    const part = await files.get(key);
    if (!part) throw new NotFoundError("A part of the upload is gone: please upload it again.");
    yield part.data;
  }
}

/** An upload's bytes as one buffer (a zip is read from its end: yauzl needs it whole). */
export async function readUploadWhole(files: FileStore, folderKey: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of readUploadParts(files, folderKey)) parts.push(part);
  return new Uint8Array(Buffer.concat(parts));
}

export async function deleteUpload(files: FileStore, folderKey: string): Promise<void> {
  const keys: string[] = [];
  for await (const key of files.list(folderKey)) keys.push(key);
  await Promise.allSettled(keys.map((key) => files.delete(key)));
}
