import { describe, expect, it } from "vitest";
import { isPublicFileUrl } from "../../../api/routes/files.routes.ts";
import { sanitizePostHtml } from "../../../core/posts/sanitize-post-html.ts";
import { linesToParagraphs, paragraphsToLines, simpleModeLoses } from "./simple-mode.ts";

describe("the Simple Editor's conversion", () => {
  it("wraps each line in a paragraph and drops blank lines", () => {
    expect(linesToParagraphs("First line\n\n  Second line  \r\nThird")).toBe("<p>First line</p><p>Second line</p><p>Third</p>");
    expect(linesToParagraphs("\n  \n")).toBe("");
  });

  it("escapes what the owner types, so text is never read as markup", () => {
    const html = linesToParagraphs('Use <script>alert("x")</script> & see');
    expect(html).toBe('<p>Use &lt;script&gt;alert("x")&lt;/script&gt; &amp; see</p>');
    // The server keeps it as the same visible text.
    expect(sanitizePostHtml(html, isPublicFileUrl)).toContain("&lt;script&gt;");
  });

  it("shows rich HTML one block per line, entities decoded", () => {
    const html =
      "<h2>Heading</h2><p>One <strong>bold</strong> word<br>and a break</p><ul><li><p>item a</p></li><li><p>item b</p></li></ul><blockquote><p>Q &amp; A</p></blockquote><p></p>";
    expect(paragraphsToLines(html)).toBe("Heading\nOne bold word\nand a break\nitem a\nitem b\nQ & A");
  });

  it("round-trips plain text unchanged", () => {
    const text = 'Fish & chips <3\nMore "quoted" words';
    expect(paragraphsToLines(linesToParagraphs(text))).toBe(text);
  });

  it("knows when typing in the textarea would drop formatting, and when plain paragraphs lose nothing", () => {
    expect(simpleModeLoses("<p>Just words</p><p>Fish &amp; chips</p>")).toBe(false);
    // Quotes, non-breaking spaces, empty paragraphs and line breaks are plain text too.
    expect(simpleModeLoses('<p>She said "no"&nbsp;twice</p><p></p><p>one<br>two</p>')).toBe(false);
    expect(simpleModeLoses("")).toBe(false);
    expect(simpleModeLoses("<p>One <strong>bold</strong> word</p>")).toBe(true);
    expect(simpleModeLoses('<p><a href="https://example.com">a link</a></p>')).toBe(true);
    expect(simpleModeLoses('<p>text</p><img src="/api/files/images/a.png">')).toBe(true);
    expect(simpleModeLoses("<h2>Heading</h2>")).toBe(true);
  });
});
