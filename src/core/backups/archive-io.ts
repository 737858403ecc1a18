/**
 * The seam between backups and the zip format's I/O (streams, a temporary file): the domain says
 * what goes in and out; `src/adapters/node-archives.ts` does it with yazl, yauzl and the disk.
 * Why streamed: docs/decisions/0040-streaming-backups.md.
 */

/** A zip written as a stream: entries one after another, their bytes taken as they come. */
export interface ZipWriter {
  /** The zip's bytes, as they are made (to be consumed while entries are added: back-pressure). */
  output: AsyncIterable<Uint8Array>;
  /** Adds an entry; resolves once its last byte is handed over. `compress: false` stores it as is. */
  add(path: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, options: { compress: boolean; mtime: Date }): Promise<void>;
  /** No more entries: the zip's directory is written and `output` ends. */
  end(): void;
  /** Stops, after a failure: `output` ends with an error. */
  abort(error: unknown): void;
}

/** A zip read entry by entry: its directory in memory, each entry's bytes streamed when asked for. */
export interface ArchiveFile {
  /** Every file entry (folders left out), by path. */
  paths(): string[];
  has(entryPath: string): boolean;
  /** The entry's bytes, inflated and size-checked as they come. */
  open(entryPath: string): Promise<AsyncIterable<Uint8Array>>;
}

export interface ArchiveIo {
  zipWriter(): ZipWriter;
  /**
   * Opens a zip for `use`: a file on disk as it is, or a stream of bytes (an upload's parts)
   * written to a temporary file first (a zip is read from its end), removed afterwards. A file
   * that is not a zip is refused with `notZipMessage`; one that unpacks past `maxBytes` with 413.
   */
  withArchive<T>(
    source: string | AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    limits: { notZipMessage: string; maxBytes: number },
    use: (archive: ArchiveFile) => Promise<T>,
  ): Promise<T>;
}

/** An entry's bytes whole (a manifest, a list): for small entries only. */
export async function readEntryWhole(archive: ArchiveFile, entryPath: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of await archive.open(entryPath)) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

/** An entry's text, a line at a time (JSON Lines), without holding the entry. */
export async function* entryLines(archive: ArchiveFile, entryPath: string): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let carry = "";
  for await (const chunk of await archive.open(entryPath)) {
    const lines = (carry + decoder.decode(chunk, { stream: true })).split("\n");
    carry = lines.pop() ?? "";
    for (const line of lines) if (line) yield line;
  }
  carry += decoder.decode();
  if (carry) yield carry;
}
