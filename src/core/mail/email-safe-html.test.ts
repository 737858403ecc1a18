import { describe, expect, it } from "vitest";
import { emailImageFileWidth, emailImageWidth, emailSafeHtml } from "./email-safe-html.ts";

describe("emailSafeHtml", () => {
  const site = "https://nofilter.example/";

  it("makes links and image sources absolute on the site", () => {
    const html = emailSafeHtml(
      '<p><a href="/blog/3" target="_blank" rel="noopener noreferrer">more</a></p><img src="/api/files/images/a.png">',
      site,
    );
    expect(html).toContain('href="https://nofilter.example/blog/3"');
    expect(html).not.toContain("target=");
    expect(html).toContain('src="https://nofilter.example/api/files/images/a.png"');
    expect(html).toContain('alt=""');
  });

  it("mails a large stored image as the image CDN's copy at twice the column (JPEG, or PNG for a PNG), never the 2,560 px original", () => {
    const source = (html: string) => new URL((/<img[^>]*\ssrc="([^"]*)"/.exec(html)?.[1] ?? "").replaceAll("&amp;", "&"));
    const photo = source(emailSafeHtml('<img src="/api/files/images/abc_2560x1920.webp" alt="A photo">', site));
    expect(photo.origin + photo.pathname).toBe("https://nofilter.example/.netlify/images");
    expect(Object.fromEntries(photo.searchParams)).toEqual({
      url: "/api/files/images/abc_2560x1920.webp",
      w: String(emailImageFileWidth),
      fm: "jpg",
    });
    expect(emailImageFileWidth).toBeLessThanOrEqual(1200);
    expect(source(emailSafeHtml('<img src="/api/files/images/abc_1600x900.png">', site)).searchParams.get("fm")).toBe("png");
    // Small enough already, a GIF (its animation), one of unknown size, another site's: as they are.
    for (const kept of [
      "/api/files/images/abc_800x600.jpg",
      "/api/files/images/abc_2000x1000.gif",
      "/api/files/images/abc.jpg",
      "https://elsewhere.example/api/files/images/abc_2560x1920.jpg",
    ]) {
      expect(source(emailSafeHtml(`<img src="${kept}">`, site)).toString()).toBe(new URL(kept, site).toString());
    }
  });

  const imageStyle = (html: string) => /<img[^>]*style="([^"]*)"/.exec(html)?.[1] ?? "";
  const imageWidthAttribute = (html: string) => /<img[^>]*\swidth="([^"]*)"/.exec(html)?.[1];

  it("makes a wide image fluid up to the column: width 100%, a max-width, height auto", () => {
    const html = emailSafeHtml('<img src="/api/files/images/abc_1600x900.webp" alt="Cover">', site);
    expect(imageStyle(html)).toContain("width:100%");
    expect(imageStyle(html)).toContain(`max-width:${String(emailImageWidth)}px`);
    expect(imageStyle(html)).toContain("height:auto");
    expect(imageWidthAttribute(html)).toBe(String(emailImageWidth));
    expect(html).toContain('alt="Cover"');
  });

  it("never stretches a small image: its max-width and width are its own", () => {
    const named = emailSafeHtml('<img src="/api/files/images/abc_120x80.png">', site);
    expect(imageStyle(named)).toContain("max-width:120px");
    expect(imageWidthAttribute(named)).toBe("120");
    const given = emailSafeHtml('<img src="/api/files/images/a.png" width="200">', site);
    expect(imageStyle(given)).toContain("max-width:200px");
    expect(imageWidthAttribute(given)).toBe("200");
  });

  it("only shrinks an image of unknown size: no forced width, no width attribute", () => {
    const html = emailSafeHtml('<img src="/api/files/images/a.png">', site);
    expect(imageStyle(html)).toMatch(/(^|;)max-width:100%/);
    expect(imageStyle(html)).not.toMatch(/(^|;)width:/);
    expect(imageStyle(html)).toContain("height:auto");
    expect(imageWidthAttribute(html)).toBeUndefined();
  });

  it("keeps absolute and mailto links as they are, and inlines the brand on each element", () => {
    const html = emailSafeHtml(
      '<h2>Cash</h2><p>Write <a href="mailto:hi@example.com">us</a> or <a href="https://example.org/x?a=1&amp;b=2">there</a></p>',
      site,
    );
    expect(html).toContain('href="mailto:hi@example.com"');
    expect(html).toContain('href="https://example.org/x?a=1&amp;b=2"');
    expect(html).toMatch(/<h2 style="[^"]+">Cash<\/h2>/);
    expect(html).toMatch(/<p style="[^"]+">/);
  });

  it("drops what a post cannot hold, even if it got into the database", () => {
    const html = emailSafeHtml('<p onclick="x()">Hi</p><script>alert(1)</script><img src="javascript:alert(1)">', site);
    expect(html).not.toMatch(/onclick|script|javascript/);
  });
});
