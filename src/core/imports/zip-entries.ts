import yauzl from "yauzl";
import { PayloadTooLargeError, ValidationError } from "../errors.ts";

/** What an export zip may unpack to: its HTML and CSV, never a zip bomb's gigabytes. */
export const maxUnzippedBytes = 256 * 1024 * 1024;

/**
 * The files of a zip (folders left out), by path, read with yauzl, which checks each entry's size
 * and CRC as it inflates. `wanted` picks the entries worth reading.
 */
export function readZipEntries(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  notZipMessage: string,
  maxBytes = maxUnzippedBytes,
): Promise<Map<string, Uint8Array>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Uint8Array>();
    let total = 0;
    yauzl.fromBuffer(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      { lazyEntries: true, validateEntrySizes: true },
      (openError, zip) => {
        if (openError) {
          reject(new ValidationError(notZipMessage));
          return;
        }
        const fail = (error: Error) => {
          zip.close();
          reject(error instanceof ValidationError || error instanceof PayloadTooLargeError ? error : new ValidationError(notZipMessage));
        };
        zip.on("error", fail);
        zip.on("end", () => resolve(entries));
        zip.on("entry", (entry: yauzl.Entry) => {
          if (entry.fileName.endsWith("/") || !wanted(entry.fileName)) {
            zip.readEntry();
            return;
          }
          total += entry.uncompressedSize;
          if (total > maxBytes) {
            fail(new PayloadTooLargeError(`The file unpacks to more than ${String(Math.round(maxBytes / 1024 / 1024))} MB.`));
            return;
          }
          zip.openReadStream(entry, (streamError, stream) => {
            if (streamError) {
              fail(streamError);
              return;
            }
            const chunks: Buffer[] = [];
            stream.on("data", (chunk: Buffer) => chunks.push(chunk));
            stream.on("error", fail);
            stream.on("end", () => {
              entries.set(entry.fileName, new Uint8Array(Buffer.concat(chunks)));
              zip.readEntry();
            });
          });
        });
        zip.readEntry();
      },
    );
  });
}

export const utf8 = (bytes: Uint8Array | undefined): string => (bytes ? new TextDecoder().decode(bytes) : "");
