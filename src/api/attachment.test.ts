import { describe, expect, it } from "vitest";
import { attachment, contentDisposition } from "./attachment.ts";

describe("attachment answers", () => {
  it("names a plain ASCII file as it is, with no second name", () => {
    expect(contentDisposition("email-subscribers.csv")).toBe('attachment; filename="email-subscribers.csv"');
  });

  it("gives any other name an ASCII stand-in and the exact UTF-8 name (RFC 6266, 8187)", () => {
    expect(contentDisposition("Gründer kit (v2).zip")).toBe(
      `attachment; filename="Gr_nder kit (v2).zip"; filename*=UTF-8''Gr%C3%BCnder%20kit%20%28v2%29.zip`,
    );
    // A quote or a backslash would end or escape the quoted name: replaced, and the exact name kept beside it.
    expect(contentDisposition('a"b\\c.pdf')).toBe(`attachment; filename="a_b_c.pdf"; filename*=UTF-8''a%22b%5Cc.pdf`);
  });

  it("answers with the same safe headers for every kind, its length when known and a kind's own extras", async () => {
    const answer = attachment("id,email\r\n", { fileName: "export.csv", contentType: "text/csv; charset=utf-8", bytes: 10 }, { "x-parts": "1" });
    expect(Object.fromEntries(answer.headers)).toEqual({
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="export.csv"',
      "content-length": "10",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
      "x-parts": "1",
    });
    expect(await answer.text()).toBe("id,email\r\n");
    expect(attachment("{}", { fileName: "a.json", contentType: "application/json" }).headers.has("content-length")).toBe(false);
  });
});
