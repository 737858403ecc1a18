import { describe, expect, it } from "vitest";
import { parseCsvRecords } from "./csv-records.ts";

describe("parseCsvRecords", () => {
  it("drops a BOM and reads CRLF, LF and CR line ends with each record's first line", async () => {
    expect(await parseCsvRecords("\uFEFFemail,source\r\na@x.io,one\nb@x.io,two\rc@x.io,three")).toEqual([
      { line: 1, fields: ["email", "source"] },
      { line: 2, fields: ["a@x.io", "one"] },
      { line: 3, fields: ["b@x.io", "two"] },
      { line: 4, fields: ["c@x.io", "three"] },
    ]);
  });

  it("reads quoted fields with commas, doubled quotes and line breaks, counting the lines inside", async () => {
    expect(await parseCsvRecords('email,note\r\n"a@x.io","one, ""two""\r\nthree"\r\nb@x.io,\r\n')).toEqual([
      { line: 1, fields: ["email", "note"] },
      { line: 2, fields: ["a@x.io", 'one, "two"\nthree'] },
      { line: 4, fields: ["b@x.io", ""] },
    ]);
  });

  it("says where a file it cannot read goes wrong", async () => {
    await expect(parseCsvRecords('email\n"a@x.io\n')).rejects.toThrow(/The CSV file could not be read: .*line/i);
  });

  it("skips blank lines but keeps their numbers", async () => {
    expect(await parseCsvRecords("email\n\n\na@x.io\n")).toEqual([
      { line: 1, fields: ["email"] },
      { line: 4, fields: ["a@x.io"] },
    ]);
  });
});
