/**
 * CSV records with the line each starts on (RFC 4180: quoted fields with commas, doubled quotes and
 * line breaks; CRLF, LF or CR; a leading UTF-8 BOM dropped; blank lines skipped).
 *
 * Written here only because no CSV parser is installed (csv-stringify, our writer, has no reader);
 * it has csv-parse's shape (`bom`, `skip_empty_lines`, `info.lines`) so swapping it in is one file.
 */
export interface CsvRecord {
  /** 1-based line of the file where the record starts (the header is line 1). */
  line: number;
  fields: string[];
}

export function parseCsvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const input = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endRecord = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0] !== "") records.push({ line: recordLine, fields });
    fields = [];
    field = "";
  };
  for (let index = 0; index < input.length; index++) {
    const char = input[index];
    if (quoted) {
      if (char === '"') {
        if (input[index + 1] === '"') {
          field += '"';
          index++;
        } else {
          quoted = false;
        }
      } else {
        if (char === "\n" || (char === "\r" && input[index + 1] !== "\n")) line++;
        field += char;
      }
    } else if (char === '"' && field === "") {
      quoted = true;
    } else if (char === ",") {
      fields.push(field);
      field = "";
    } else if (char === "\r" || char === "\n") {
      if (char === "\r" && input[index + 1] === "\n") index++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      field += char;
    }
  }
  if (field !== "" || fields.length > 0) endRecord();
  return records;
}
