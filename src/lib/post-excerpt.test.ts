import { describe, expect, it } from "vitest";
import { decodeEntities, excerptFromHtml, plainText, postSummary } from "./post-excerpt.ts";

describe("plainText", () => {
  it("strips tags, keeping words apart across blocks but not inside inline tags", () => {
    expect(plainText("<h2>Title</h2><p>One <strong>bold</strong>word.</p><ul><li>a</li><li>b</li></ul>")).toBe("Title One boldword. a b");
  });

  it("decodes common entities once", () => {
    expect(plainText("<p>Fish &amp; chips &lt;3 &quot;ok&quot; &#39;x&#39; &#x2014; &amp;lt;</p>")).toBe("Fish & chips <3 \"ok\" 'x' — &lt;");
  });

  it("leaves unknown entities as they are", () => {
    expect(decodeEntities("&bogus; &#0;")).toBe("&bogus; &#0;");
  });
});

describe("excerptFromHtml", () => {
  it("keeps short text whole, without an ellipsis", () => {
    expect(excerptFromHtml("<p>Short and sweet.</p>")).toBe("Short and sweet.");
  });

  it("cuts at 150 characters and adds an ellipsis", () => {
    const text = "x".repeat(149) + " " + "y".repeat(20);
    const excerpt = excerptFromHtml(`<p>${text}</p>`);
    expect(excerpt).toBe(`${"x".repeat(149)}…`);
  });

  it("counts characters of the text, not of the markup", () => {
    const html = `<p><strong>${"a".repeat(150)}</strong></p>`;
    expect(excerptFromHtml(html)).toBe("a".repeat(150));
  });
});

describe("postSummary", () => {
  it("prefers the excerpt", () => {
    expect(postSummary({ excerpt: " Hand-written. ", content: "<p>Body</p>" })).toBe("Hand-written.");
  });

  it("falls back to the content when the excerpt is missing or blank", () => {
    expect(postSummary({ excerpt: null, content: "<p>Body</p>" })).toBe("Body");
    expect(postSummary({ excerpt: "  ", content: "<p>Body</p>" })).toBe("Body");
  });
});
