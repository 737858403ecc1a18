import { describe, expect, it } from "vitest";
import { emailImageWidth, emailSafeHtml } from "./email-safe-html.ts";

describe("emailSafeHtml", () => {
  const site = "https://nofilter.example/";

  it("makes links and image sources absolute on the site, and sizes images to the column", () => {
    const html = emailSafeHtml(
      '<p><a href="/blog/3" target="_blank" rel="noopener noreferrer">more</a></p><img src="/api/files/images/a.png">',
      site,
    );
    expect(html).toContain('href="https://nofilter.example/blog/3"');
    expect(html).not.toContain("target=");
    expect(html).toContain('src="https://nofilter.example/api/files/images/a.png"');
    expect(html).toContain(`width="${String(emailImageWidth)}"`);
    expect(html).toContain('alt=""');
    expect(html).toMatch(/<img[^>]*style="[^"]*max-width:100%/);
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
