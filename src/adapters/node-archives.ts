import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";
import yazl from "yazl";
import type { ArchiveFile, ArchiveIo, ZipWriter } from "../core/backups/archive-io.ts";
import { PayloadTooLargeError, ValidationError } from "../core/errors.ts";

/** A zip written as a stream with yazl: each entry a PassThrough it reads in turn; a full one waits for the zip to drain. */
function zipWriter(): ZipWriter {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as PassThrough;
  // The reader's failure (a put refused) ends the writer's wait for a drain.
  const failed = new Promise<never>((_resolve, reject) => {
    output.once("error", reject);
    output.once("close", () => reject(new Error("The archive's output closed")));
  });
  failed.catch(() => undefined);
  return {
    output,
    async add(entryPath, source, options) {
      const entry = new PassThrough();
      zip.addReadStream(entry, entryPath, { mtime: options.mtime, compress: options.compress });
      for await (const chunk of source) if (!entry.write(chunk)) await Promise.race([once(entry, "drain"), failed]);
      entry.end();
    },
    end: () => zip.end(),
    abort: (error) => output.destroy(error instanceof Error ? error : new Error(String(error))),
  };
}

/** Opens a zip file with yauzl: its directory read at once, each entry streamed (size-checked) when asked for. */
function openArchiveFile(file: string, limits: { notZipMessage: string; maxBytes: number }): Promise<ArchiveFile & { close(): void }> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, validateEntrySizes: true, autoClose: false }, (openError, zip) => {
      if (openError) {
        reject(new ValidationError(limits.notZipMessage));
        return;
      }
      const entries = new Map<string, yauzl.Entry>();
      let total = 0;
      const fail = (error: Error) => {
        zip.close();
        reject(error);
      };
      zip.on("error", () => fail(new ValidationError(limits.notZipMessage)));
      zip.on("entry", (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith("/")) {
          total += entry.uncompressedSize;
          if (total > limits.maxBytes) {
            fail(new PayloadTooLargeError(`The file unpacks to more than ${String(Math.round(limits.maxBytes / 1024 / 1024))} MB.`));
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
                rejectStream(new ValidationError(limits.notZipMessage));
                return;
              }
              zip.openReadStream(entry, (streamError, stream) => {
                if (streamError) rejectStream(new ValidationError(limits.notZipMessage));
                else resolveStream(stream as AsyncIterable<Buffer>);
              });
            }),
          close: () => zip.close(),
        }),
      );
      zip.readEntry();
    });
  });
}

/** Writes a stream of bytes to a temporary file for `use`, and removes it afterwards. */
async function withTemporaryFile<T>(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, use: (file: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(path.join(tmpdir(), "no-filter-archive-"));
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

/** Zips written and read as streams, on this machine's disk (a Function's temporary folder on Netlify). */
export const nodeArchives: ArchiveIo = {
  zipWriter,
  async withArchive(source, limits, use) {
    const opened = async (file: string) => {
      const archive = await openArchiveFile(file, limits);
      try {
        return await use(archive);
      } finally {
        archive.close();
      }
    };
    return typeof source === "string" ? opened(source) : withTemporaryFile(source, opened);
  },
};
