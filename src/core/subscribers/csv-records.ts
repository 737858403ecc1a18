import type { Options } from "csv-parse";
import { parse } from "csv-parse/stream";
// csv-parse/stream declares CsvError but does not export it: the class is the same module's.
import { CsvError } from "csv-parse/sync";
import { ValidationError } from "../errors.ts";

/** A CSV record with the line it starts on. */
export interface CsvRecord {
  /** 1-based line of the file where the record starts (the header is line 1). */
  line: number;
  fields: string[];
}

/** Line ends are made LF before csv-parse sees them (see `lineFeeds`), so one record delimiter serves all. */
const options: Options = { bom: true, skip_empty_lines: true, relax_column_count: true, info: true, record_delimiter: "\n" };

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

/**
 * CSV records (RFC 4180, by csv-parse: quoted fields with commas, doubled quotes and line breaks;
 * CRLF, LF or CR, read as LF; a leading UTF-8 BOM dropped; blank lines skipped), each with its first
 * line so a refused row can be named. Read as a stream: the file is decoded and parsed 64 KB at a
 * time and each record is handed on as it is read, so what is held at once is a piece's records,
 * not the file's (decision 0062: a 4 MB file read whole took hundreds of MB). A file
 * csv-parse cannot read at all is a 400 saying where, thrown when the reading gets there.
 */
export async function* readCsvRecords(source: ReadableStream<Uint8Array>): AsyncGenerator<CsvRecord, void, undefined> {
  // Leaving the loop early cancels the streams, so nothing keeps reading a file no one wants.
  const records = source.pipeThrough(lineFeeds()).pipeThrough(parse(options) as TransformStream<Uint8Array, ParsedRecord>);
  try {
    for await (const { record, info } of records) yield recordAt(record, info);
  } catch (error) {
    if (error instanceof CsvError) throw new ValidationError(`The CSV file could not be read: ${error.message}`);
    throw error;
  }
}

/** `readCsvRecords` of a text held whole: every record at once. */
export async function parseCsvRecords(text: string): Promise<CsvRecord[]> {
  const records: CsvRecord[] = [];
  for await (const record of readCsvRecords(new Blob([text]).stream())) records.push(record);
  return records;
}

// csv-parse counts lines up to a record's end; a record spans one line more per break inside it.
const recordAt = (fields: string[], info: { lines: number }): CsvRecord => ({
  line: info.lines - fields.reduce((breaks, field) => breaks + (field.match(/\n/g)?.length ?? 0), 0),
  fields,
});

/**
 * What csv-parse is given at a time. It parses a whole chunk and queues every record in it before
 * anyone reads them, and a Blob's stream may be one chunk of the whole file: cut into pieces, the
 * queue holds a piece's records (a 64 KB piece of short bad rows: about 3,000).
 */
const pieceBytes = 64 * 1024;

/**
 * The file's text a piece at a time with one line end for all: files mix them (and a lone CR ends a
 * line in old Mac exports). A CR at a piece's end waits for the next piece, which may start with its LF.
 */
function lineFeeds(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let held = "";
  return new TransformStream({
    transform(chunk, controller) {
      for (let start = 0; start < chunk.length; start += pieceBytes) {
        let text = held + decoder.decode(chunk.subarray(start, start + pieceBytes), { stream: true });
        held = text.endsWith("\r") ? "\r" : "";
        if (held) text = text.slice(0, -1);
        if (text) controller.enqueue(Buffer.from(text.replace(/\r\n?/g, "\n")));
      }
    },
    flush(controller) {
      const rest = (held + decoder.decode()).replace(/\r\n?/g, "\n");
      if (rest) controller.enqueue(Buffer.from(rest));
    },
  });
}
