import { describe, expect, it } from "vitest";
import { isPublicFileUrl as isFile } from "../../api/routes/files.routes.ts";
import { pollBlockHtml } from "../polls/poll-html.ts";
import { isEmptyPostHtml, sanitizePostHtml } from "./sanitize-post-html.ts";

describe("sanitizePostHtml", () => {
  it("keeps everything the editor produces", () => {
    const html =
      "<h1>A</h1><h2>B</h2><h6>C</h6><p><strong>b</strong> <em>i</em> <s>s</s> <code>c</code><br></p>" +
      "<pre><code>x = 1</code></pre><blockquote><p>q</p></blockquote><ul><li>one</li></ul><ol><li>two</li></ol><hr>" +
      '<p><a href="https://example.com/x">link</a> <img src="/api/files/images/a.png" alt="A"></p>';
    expect(sanitizePostHtml(html, isFile)).toBe(
      "<h1>A</h1><h2>B</h2><h6>C</h6><p><strong>b</strong> <em>i</em> <s>s</s> <code>c</code><br /></p>" +
        "<pre><code>x = 1</code></pre><blockquote><p>q</p></blockquote><ul><li>one</li></ul><ol><li>two</li></ol><hr />" +
        '<p><a href="https://example.com/x">link</a> <img src="/api/files/images/a.png" alt="A" /></p>',
    );
  });

  it("keeps an imported figure with its caption, without its attributes (issue 43 point 7)", () => {
    expect(
      sanitizePostHtml(
        '<figure class="wp-block-image"><img src="/api/files/images/a.png" alt="A"><figcaption style="x">The caption</figcaption></figure>',
        isFile,
      ),
    ).toBe('<figure><img src="/api/files/images/a.png" alt="A" /><figcaption>The caption</figcaption></figure>');
  });

  it("keeps a poll's block (a div with a numeric data-poll, nothing else on it) and unwraps any other div (issue 42 point 6)", () => {
    const poll = pollBlockHtml({ id: 12, question: "Fund or bootstrap?", answers: [{ text: "Fund" }, { text: "Bootstrap" }] });
    expect(sanitizePostHtml(poll, isFile)).toBe(poll);
    expect(sanitizePostHtml('<div data-poll="7" class="x" onclick="steal()" data-other="1"><p>Q</p></div>', isFile)).toBe(
      '<div data-poll="7"><p>Q</p></div>',
    );
    expect(sanitizePostHtml('<div class="wp-block"><p>kept</p></div><div data-poll="abc"><p>text</p></div><div data-poll="0">z</div>', isFile)).toBe(
      "<p>kept</p><p>text</p>z",
    );
  });

  it("removes scripts, styles, iframes and forms with their content", () => {
    expect(sanitizePostHtml('<p>ok</p><script>alert(1)</script><style>p{}</style><iframe src="https://evil.example"></iframe>', isFile)).toBe(
      "<p>ok</p>",
    );
    expect(sanitizePostHtml('<form action="/x"><input name="a"></form><p>ok</p>', isFile)).toBe("<p>ok</p>");
  });

  it("removes event handlers, styles and classes", () => {
    expect(sanitizePostHtml('<p onclick="alert(1)" style="color:red" class="x">hi</p>', isFile)).toBe("<p>hi</p>");
    expect(sanitizePostHtml('<img src="/api/files/images/a.png" onerror="alert(1)" alt="a">', isFile)).toBe(
      '<img src="/api/files/images/a.png" alt="a" />',
    );
  });

  it("drops javascript:, data: and vbscript: links but keeps the allowed schemes", () => {
    for (const href of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
    ]) {
      expect(sanitizePostHtml(`<a href="${href}">x</a>`, isFile)).toBe("<a>x</a>");
    }
    for (const href of [
      "http://a.example",
      "https://a.example",
      "ftp://a.example",
      "ftps://a.example",
      "mailto:a@example.com",
      "tel:+15550100",
      "callto:someone",
      "sms:+15550100",
      "cid:part1",
      "xmpp:a@example.com",
      "/blog/1",
    ]) {
      expect(sanitizePostHtml(`<a href="${href}">x</a>`, isFile)).toBe(`<a href="${href}">x</a>`);
    }
  });

  it("adds rel=noopener noreferrer to links opening a new tab", () => {
    expect(sanitizePostHtml('<a href="https://a.example" target="_blank">x</a>', isFile)).toBe(
      '<a href="https://a.example" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizePostHtml('<a href="https://a.example" target="_blank" rel="opener">x</a>', isFile)).toBe(
      '<a href="https://a.example" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  it("keeps images only from http(s) or our own /api/ paths", () => {
    expect(sanitizePostHtml('<p><img src="data:image/png;base64,AAAA" alt="x"></p>', isFile)).toBe("<p></p>");
    expect(sanitizePostHtml('<p><img src="data:image/svg+xml,<svg onload=alert(1)>"></p>', isFile)).toBe("<p></p>");
    expect(sanitizePostHtml('<p><img src="javascript:alert(1)"></p>', isFile)).toBe("<p></p>");
    expect(sanitizePostHtml('<p><img src="//evil.example/a.png"></p>', isFile)).toBe("<p></p>");
    expect(sanitizePostHtml('<p><img src="/admin/secret"></p>', isFile)).toBe("<p></p>");
    expect(sanitizePostHtml('<p><img src="ftp://a.example/a.png"></p>', isFile)).toBe("<p></p>");
    expect(sanitizePostHtml('<p><img alt="no source"></p>', isFile)).toBe("<p></p>");
    // Only the site's own images: its CSP would block any other (issue 17, finding 10).
    expect(sanitizePostHtml('<img src="http://a.example/a.png">', isFile)).toBe("");
    expect(sanitizePostHtml('<img src="https://a.example/a.png">', isFile)).toBe("");
    expect(sanitizePostHtml('<img src="/api/files/images/../../admin">', isFile)).toBe("");
  });
});

describe("isEmptyPostHtml", () => {
  it("is true for markup without text or image", () => {
    expect(isEmptyPostHtml("")).toBe(true);
    expect(isEmptyPostHtml("<p></p>")).toBe(true);
    expect(isEmptyPostHtml("<p> &nbsp; </p><p><br /></p>")).toBe(true);
    expect(isEmptyPostHtml("<p>x</p>")).toBe(false);
    expect(isEmptyPostHtml('<p><img src="/api/files/images/a.png" /></p>')).toBe(false);
  });
});
