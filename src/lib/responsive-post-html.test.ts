import { describe, expect, it } from "vitest";
import { responsivePostHtml } from "./responsive-post-html.ts";

const sizes = "(min-width: 928px) 890px, calc(100vw - 2rem)";

describe("responsivePostHtml", () => {
  it("gives a stored image WebP and JPEG srcsets from the Image CDN, its size, and lazy loading", () => {
    const html = responsivePostHtml('<p>Before</p><img src="/api/files/images/abc_2560x1920.jpg" alt="The &quot;team&quot;" /><p>After</p>', sizes);
    const img = /<img [^>]*>/.exec(html)?.[0] ?? "";
    expect(html).toMatch(/^<p>Before<\/p><picture><source type="image\/webp" srcset="[^"]+" sizes="[^"]+" \/><img [^>]+><\/picture><p>After<\/p>$/);
    expect(img).toContain('alt="The &quot;team&quot;"');
    // 890 wide at most, so 890 × 668 keeps the photo's 4:3.
    expect(img).toContain('width="890" height="668"');
    expect(img).toContain('loading="lazy"');
    expect(img).toContain('src="/.netlify/images?url=%2Fapi%2Ffiles%2Fimages%2Fabc_2560x1920.jpg&amp;w=890&amp;fm=jpg"');
    const webp = /srcset="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&") ?? "";
    expect(webp.split(", ").map((entry) => entry.split(" ")[1])).toEqual(["320w", "480w", "640w", "800w", "1200w", "1600w"]);
    expect(webp).toContain("/.netlify/images?url=%2Fapi%2Ffiles%2Fimages%2Fabc_2560x1920.jpg&w=320&fm=webp 320w");
  });

  it("offers no width past the original's, and leaves the size out when the name has none", () => {
    const small = responsivePostHtml('<img src="/api/files/images/abc_500x250.png" alt="" />', sizes);
    expect(small).toContain("w=480&amp;fm=webp 480w");
    expect(small).not.toContain("640w");
    expect(small).toContain('width="500" height="250"');
    const old = responsivePostHtml('<img src="/api/files/images/0b8f3c3e.png" alt="" />', sizes);
    expect(old).toContain("1600w");
    expect(old).not.toContain("width=");
  });

  it("leaves anything that is not a stored image alone", () => {
    const html = '<p>No image</p><img src="/favicon.svg" alt="" />';
    expect(responsivePostHtml(html, sizes)).toBe(html);
  });
});
