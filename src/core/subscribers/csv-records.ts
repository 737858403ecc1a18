import { CsvError, parse } from "csv-parse/sync";
import { ValidationError } from "../errors.ts";

/** A CSV record with the line it starts on. */
export interface CsvRecord {
  /** 1-based line of the file where the record starts (the header is line 1). */
  line: number;
  fields: string[];
}

/**
 * CSV records (RFC 4180, by csv-parse: quoted fields with commas, doubled quotes and line breaks;
 * CRLF, LF or CR, read as LF; a leading UTF-8 BOM dropped; blank lines skipped), each with its first line so a
 * refused row can be named. A file csv-parse cannot read at all is a 400 saying where.
 */
export function parseCsvRecords(text: string): CsvRecord[] {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    // One line end for all: files mix them (and a lone CR ends a line in old Mac exports).
    const lines = text.replace(/\r\n?/g, "\n");
    parsed = parse(lines, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
      record_delimiter: "\n",
    }) as unknown as typeof parsed;
  } catch (error) {
    if (error instanceof CsvError) throw new ValidationError(`The CSV file could not be read: ${error.message}`);
    throw error;
  }
  // csv-parse counts lines up to a record's end; a record spans one line more per break inside it.
  return parsed.map(({ record, info }) => ({
    line: info.lines - record.reduce((breaks, field) => breaks + (field.match(/\n/g)?.length ?? 0), 0),
    fields: record,
  }));
}
