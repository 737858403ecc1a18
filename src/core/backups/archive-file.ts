import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";
import { PayloadTooLargeError, ValidationError } from "../errors.ts";

/**
 * A zip on disk, read entry by entry: its directory (names and sizes) in memory, each entry's
 * bytes streamed when asked for, inflated and CRC-checked by yauzl. A restore reads it twice (the
 * hashes first, then the content) and never holds more than one stored file in memory.
 */
export interface ArchiveFile {
  /** Every file entry (folders left out), by path. */
  paths(): string[];
  has(entryPath: string): boolean;
  /** The entry's bytes as a stream. */
  open(entryPath: string): Promise<Readable>;
  close(): void;
}

/** Opens a zip file; a file that is not a zip, or unpacks past `maxBytes`, is refused with a ValidationError / PayloadTooLargeError. */
export function openArchiveFile(file: string, notZipMessage: string, maxBytes: number): Promise<ArchiveFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, validateEntrySizes: true, autoClose: false }, (openError, zip) => {
      if (openError) {
        reject(new ValidationError(notZipMessage));
        return;
      }
      const entries = new Map<string, yauzl.Entry>();
      let total = 0;
      const fail = (error: Error) => {
        zip.close();
        reject(error);
      };
      zip.on("error", () => fail(new ValidationError(notZipMessage)));
      zip.on("entry", (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith("/")) {
          total += entry.uncompressedSize;
          if (total > maxBytes) {
            fail(new PayloadTooLargeError(`The file unpacks to more than ${String(Math.round(maxBytes / 1024 / 1024))} MB.`));
            return;
          }
          entries.set(entry.fileName, entry);
        }
        zip.readEntry();
      });
      zip.on("end", () =>
        resolve({
          paths: () => [...entries.keys()],
          has: (entryPath) => entries.has(entryPath),
          open: (entryPath) =>
            new Promise((resolveStream, rejectStream) => {
              const entry = entries.get(entryPath);
              if (!entry) {
                rejectStream(new ValidationError(notZipMessage));
                return;
              }
              zip.openReadStream(entry, (streamError, stream) => {
                if (streamError) rejectStream(new ValidationError(notZipMessage));
                else resolveStream(stream);
              });
            }),
          close: () => zip.close(),
        }),
      );
      zip.readEntry();
    });
  });
}

/** An entry's bytes whole (a manifest, a list): for small entries only. */
export async function readEntryWhole(archive: ArchiveFile, entryPath: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of await archive.open(entryPath)) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/** An entry's text, a line at a time (JSON Lines), without holding the entry. */
export async function* entryLines(archive: ArchiveFile, entryPath: string): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let carry = "";
  for await (const chunk of await archive.open(entryPath)) {
    const lines = (carry + decoder.decode(chunk as Buffer, { stream: true })).split("\n");
    carry = lines.pop() ?? "";
    for (const line of lines) if (line) yield line;
  }
  carry += decoder.decode();
  if (carry) yield carry;
}

/**
 * Writes a stream of bytes (a kept upload's parts) to a temporary file and gives its path to `use`;
 * the file is removed afterwards. A zip is read from its end, so a restore needs it somewhere it
 * can seek: the disk, not memory.
 */
export async function withTemporaryFile<T>(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, use: (file: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(path.join(tmpdir(), "no-filter-restore-"));
  try {
    const file = path.join(folder, "archive.zip");
    await pipeline(
      (async function* () {
        for await (const chunk of chunks) yield chunk;
      })(),
      createWriteStream(file),
    );
    return await use(file);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
