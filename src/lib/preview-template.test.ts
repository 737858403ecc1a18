import { describe, expect, it } from "vitest";
import type { Post } from "../core/posts/post.schema.ts";
import { fillPreviewTemplate, previewTemplates, previewTokens, previewVariant } from "./preview-template.ts";
import { formatLongDate } from "./format-date.ts";

const draft: Post = {
  id: 7,
  title: `Runway "math" & <friends>`,
  content: `<p>Count the months.</p><p><img src="/api/files/images/abc-800x600.png" alt="chart"></p>`,
  excerpt: "Months left.",
  emailSubject: null,
  category: "Cash Flow",
  readTime: 8,
  published: false,
  publishedAt: null,
  createdAt: "2026-11-20T10:00:00.000Z",
  updatedAt: "2026-11-20T10:00:00.000Z",
  featuredImage: "/api/files/images/cover-1600x900.png",
  featuredImageAlt: "A runway chart running out in March",
  featuredImageFocus: null,
  slug: "runway-math",
  url: "/blog/runway-math",
  publishAt: null,
  tags: [],
  sendAsNewsletter: false,
  commentsClosed: false,
  commentCount: 0,
  fediverse: { likes: 0, boosts: 0, replies: 0 },
};

describe("preview templates", () => {
  it("has one template per shape a post can take: cover or not, excerpt or not, each category or none", () => {
    const variants = previewTemplates().map((template) => template.variant);
    expect(variants).toHaveLength(24);
    expect(new Set(variants).size).toBe(24);
    expect(variants).toContain(previewVariant(draft));
    expect(previewVariant(draft)).toBe("cover-excerpt-cash-flow");
  });

  it("fills a template with the draft: escaped texts, the body made responsive, the date it would show, the cover's own sources", () => {
    const share = (title: string, excerpt: string) => JSON.stringify({ title, excerpt }).replaceAll('"', "&quot;");
    const template = `<title>${previewTokens.title} — No Filter</title>
<div data-island="ShareButton" data-props="${share(previewTokens.title, previewTokens.excerpt)}"></div>
<time datetime="${previewTokens.date}">${formatLongDate(previewTokens.date)}</time><span>59 min read</span>
<h1>${previewTokens.title}</h1><p>${previewTokens.excerpt}</p>
<div data-post-cover><picture class="contents"><source type="image/webp" srcset="old 320w" sizes="x"><img src="old.jpg" alt="" width="890" height="467"></picture></div>
<div class="post-body"><p>${previewTokens.body}</p></div>`;
    const html = fillPreviewTemplate(template, draft, "2026-11-24T12:00:00.000Z");
    expect(html).toContain("<title>Runway &quot;math&quot; &amp; &lt;friends&gt; — No Filter</title>");
    expect(html).toContain("<h1>Runway &quot;math&quot; &amp; &lt;friends&gt;</h1><p>Months left.</p>");
    const props = /data-props="([^"]*)"/.exec(html)?.[1] ?? "";
    const unescaped = props
      .replaceAll("&quot;", '"')
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&#39;", "'")
      .replaceAll("&amp;", "&");
    expect(JSON.parse(unescaped)).toEqual({ title: draft.title, excerpt: "Months left." });
    expect(html).toContain(`<time datetime="2026-11-24T12:00:00.000Z">November 24, 2026</time><span>8 min read</span>`);
    expect(html).toContain("<p>Count the months.</p>");
    expect(html).toMatch(/<img src="\/\.netlify\/images\?url=%2Fapi%2Ffiles%2Fimages%2Fabc-800x600\.png[^"]*"/);
    expect(html).toMatch(/srcset="\/\.netlify\/images\?url=%2Fapi%2Ffiles%2Fimages%2Fcover-1600x900\.png/);
    expect(html).not.toContain("NfPreview");
    expect(html).not.toContain("old.jpg");
    // The cover says what it shows, in the draft's own words.
    expect(html).toContain(`alt="A runway chart running out in March"`);
  });
});
