import { describe, expect, it } from "vitest";
import {
  newsletterReason,
  renderConfirmationEmail,
  renderDownloadEmail,
  renderWebhookDisabledEmail,
  renderNewsletterEmail,
  renderWelcomeEmail,
  type EmailContent,
} from "./emails.ts";

// Real renders, no mocks: the HTML is read back with a small anchor parser and the text part as lines.
const site = {
  siteName: "No Filter",
  siteUrl: "https://nofilter.example/",
  mailingAddress: "No Filter Media\n42 Founders Lane\r\nSpringfield, ST 00000\nUSA",
};
const addressLines = ["No Filter Media", "42 Founders Lane", "Springfield, ST 00000", "USA"];
// An ampersand in each query: it must be escaped in the HTML and come back intact.
const confirmUrl = "https://nofilter.example/newsletter/confirm?token=c0nf1rm.s1g&source=test";
const unsubscribeUrl = "https://nofilter.example/newsletter/unsubscribe?token=uNsUb.s1g&v=1";
const downloadUrl = "https://nofilter.example/api/downloads/7/file?expires=1790000000&signature=abc123";

function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

/** Every <a> in the HTML: its href and its visible text (Outlook-only comments left out). */
function links(html: string): { href: string; text: string }[] {
  return [...html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)].map(([, attributes = "", inner = ""]) => ({
    href: decodeEntities(/\bhref="([^"]*)"/.exec(attributes)?.[1] ?? ""),
    text: decodeEntities(
      inner
        .replace(/<!--[\s\S]*?-->/g, "")
        .replace(/<[^>]+>/g, "")
        .replace(/[\u200a\u200b]/g, ""),
    ).trim(),
  }));
}

const hrefsLabelled = (email: EmailContent, label: string) =>
  links(email.html)
    .filter((link) => link.text === label)
    .map((link) => link.href);

/** The URL stands alone in the text part: whitespace or a line's edge on both sides. */
function expectUrlOnItsOwn(text: string, url: string) {
  const escaped = url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  expect(text).toMatch(new RegExp(`(^|\\s)${escaped}(\\s|$)`, "m"));
}

function expectFooter(email: EmailContent, reason: string) {
  expect(decodeEntities(email.html)).toContain(reason);
  expect(email.text).toContain(reason);
  expect(email.html).toContain(addressLines.join("<br/>"));
  expect(email.text).toContain(addressLines.join("\n"));
}

function expectNoUnsubscribe(email: EmailContent) {
  expect(links(email.html).filter((link) => /unsubscribe/i.test(link.text) || /unsubscribe/i.test(link.href))).toEqual([]);
  expect(email.text).not.toMatch(/unsubscribe\s+https?:/i);
}

describe("confirmation email", () => {
  it("asks to confirm with one button, says the link expires and what ignoring it does", async () => {
    const email = await renderConfirmationEmail({ ...site, confirmUrl });
    expect(email.subject).toBe("Confirm your subscription to No Filter");
    expect(email.html).toMatch(/^<!DOCTYPE html/);
    expect(hrefsLabelled(email, "Confirm subscription")).toEqual([confirmUrl]);
    expectUrlOnItsOwn(email.text, confirmUrl);
    expect(email.text).toContain("expires in 7 days");
    expect(email.text).toMatch(/Ignore this email and nothing happens/);
    expectFooter(email, "You (or someone using this address) asked to subscribe at No Filter (nofilter.example).");
  });

  it("has no unsubscribe link: the person is not subscribed yet", async () => {
    expectNoUnsubscribe(await renderConfirmationEmail({ ...site, confirmUrl }));
  });
});

describe("welcome email", () => {
  it("says what to expect, links the blog and the resources, and can be left", async () => {
    const email = await renderWelcomeEmail({ ...site, unsubscribeUrl });
    expect(email.subject).toMatch(/No Filter/);
    expect(email.text).toContain("One email a week");
    expect(email.text).toContain("No spam. Unsubscribe any time.");
    const hrefs = links(email.html).map((link) => link.href);
    expect(hrefs).toContain("https://nofilter.example/blog/");
    expect(hrefs).toContain("https://nofilter.example/downloads/");
    expect(hrefsLabelled(email, "Unsubscribe")).toEqual([unsubscribeUrl]);
    for (const url of ["https://nofilter.example/blog/", "https://nofilter.example/downloads/", unsubscribeUrl]) expectUrlOnItsOwn(email.text, url);
    expectFooter(email, "You confirmed your subscription to the No Filter newsletter at nofilter.example.");
  });
});

describe("download email", () => {
  const request = { ...site, resourceTitle: "Cash Flow Survival Kit", downloadUrl, confirmUrl, unsubscribeUrl: null };

  it("links the file, says for how long, and invites a pending person to confirm", async () => {
    const email = await renderDownloadEmail(request);
    expect(email.subject).toBe("Your download: Cash Flow Survival Kit");
    expect(hrefsLabelled(email, "Download now")).toEqual([downloadUrl]);
    expect(hrefsLabelled(email, "Confirm subscription")).toEqual([confirmUrl]);
    expectUrlOnItsOwn(email.text, downloadUrl);
    expectUrlOnItsOwn(email.text, confirmUrl);
    expect(email.text).toContain("24 hours");
    expectFooter(email, "You asked for Cash Flow Survival Kit at No Filter (nofilter.example).");
  });

  it("invites no one already subscribed, and has the unsubscribe link exactly when given", async () => {
    const subscribed = await renderDownloadEmail({ ...request, confirmUrl: null, unsubscribeUrl });
    expect(hrefsLabelled(subscribed, "Confirm subscription")).toEqual([]);
    expect(subscribed.text).not.toMatch(/confirm/i);
    expect(hrefsLabelled(subscribed, "Unsubscribe")).toEqual([unsubscribeUrl]);
    expectUrlOnItsOwn(subscribed.text, unsubscribeUrl);

    expectNoUnsubscribe(await renderDownloadEmail(request));
  });

  it("escapes a title and an address that contain markup", async () => {
    const email = await renderDownloadEmail({
      ...request,
      resourceTitle: `Pitch <script>alert("x")</script> & <img src=x onerror=alert(1)>\nDeck`,
      mailingAddress: "<b>Bold</b> Street\n<a href='https://evil.example'>City</a>",
    });
    expect(email.html).not.toMatch(/<script|<img|<b>|evil\.example'/i);
    expect(email.html).toContain("Pitch &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt; Deck");
    expect(email.html).toContain("&lt;b&gt;Bold&lt;/b&gt; Street<br/>&lt;a href=&#x27;https://evil.example&#x27;&gt;City&lt;/a&gt;");
    expect(links(email.html).map((link) => link.href)).not.toContain("https://evil.example");
    // The subject is one line: a line break in a title must not reach the header.
    expect(email.subject).toBe(`Your download: Pitch <script>alert("x")</script> & <img src=x onerror=alert(1)> Deck`);
  });
});

describe("webhook switched off email", () => {
  it("names the endpoint and its last failure, links the site, and has no unsubscribe link (it goes to the owner)", async () => {
    const email = await renderWebhookDisabledEmail({
      ...site,
      endpointUrl: "https://crm.example.com/hooks",
      reason: "Switched off after 3 days of failed deliveries (last: answered 503)",
      dashboardUrl: "https://nofilter.example",
    });
    expect(email.subject).toBe("No Filter: a webhook endpoint was switched off");
    expect(email.text).toContain("https://crm.example.com/hooks");
    expect(email.text).toContain("answered 503");
    expectNoUnsubscribe(email);
  });
});

describe("newsletter email", () => {
  const post = {
    title: "Runway",
    excerpt: null,
    contentHtml: "<p>Count the months.</p>",
    postUrl: "https://nofilter.example/blog/runway/",
    unsubscribeUrl,
  };

  it("says in its footer how the person joined: the form, a download, or the owner's import", async () => {
    expect(newsletterReason("newsletter", site)).toBe("You subscribed to the No Filter newsletter at nofilter.example.");
    expect(newsletterReason("download", site)).toBe("You confirmed the No Filter newsletter when you asked for a free resource at nofilter.example.");
    expect(newsletterReason("import", site)).toBe(
      "You agreed to receive the No Filter newsletter, and its owner added your address to the list at nofilter.example.",
    );
    expect(newsletterReason(null, site)).toBe(newsletterReason("newsletter", site));
    expectFooter(await renderNewsletterEmail({ ...site, ...post }), newsletterReason("newsletter", site));
    expectFooter(await renderNewsletterEmail({ ...site, ...post, reason: newsletterReason("import", site) }), newsletterReason("import", site));
  });

  it("has its 'Read it on the site' address once in each part", async () => {
    const email = await renderNewsletterEmail({ ...site, ...post });
    expect(hrefsLabelled(email, "Read it on the site")).toEqual([post.postUrl]);
    expect(occurrences(decodeEntities(email.html), post.postUrl)).toBe(1);
    expect(occurrences(email.text, post.postUrl)).toBe(1);
  });

  it("goes out under the post's own email subject when it has one, the title otherwise; the heading stays the title", async () => {
    const own = await renderNewsletterEmail({ ...site, ...post, subject: "Three months of runway,\n  and what we cut" });
    expect(own.subject).toBe("Three months of runway, and what we cut");
    expect(own.html).toContain("<title>Three months of runway, and what we cut</title>");
    expect(own.text).toMatch(/^RUNWAY$/m); // html-to-text writes headings in capitals
    for (const none of [null, "", "   "]) expect((await renderNewsletterEmail({ ...site, ...post, subject: none })).subject).toBe("Runway");
  });

  it("leaves no blank lines for images in the text part: an image between paragraphs, alone in one, or first", async () => {
    const email = await renderNewsletterEmail({
      ...site,
      ...post,
      contentHtml:
        '<img src="/api/files/images/top_800x400.png" alt="A chart"><p>Before</p><img src="/api/files/images/a_800x400.png" alt="">' +
        '<p>Between</p><p><img src="/api/files/images/b_800x400.png" alt="A graph"></p><p>After</p>',
    });
    expect(email.html.match(/<img /g)).toHaveLength(3);
    // Paragraphs are one blank line apart, as everywhere in the text part; nothing more.
    expect(email.text).toContain("RUNWAY\n\nBefore\n\nBetween\n\nAfter\n\n");
    expect(email.text).not.toMatch(/\n[ \t]*\n[ \t]*\n/);
    expect(email.text).not.toMatch(/[ \t]$/m);
  });
});

describe("every email's head", () => {
  it("has a viewport for phones and the subject as its <title>", async () => {
    const emails = [
      await renderConfirmationEmail({ ...site, confirmUrl }),
      await renderWelcomeEmail({ ...site, unsubscribeUrl }),
      await renderDownloadEmail({ ...site, resourceTitle: `Kit & "more"`, downloadUrl, confirmUrl: null, unsubscribeUrl: null }),
      await renderNewsletterEmail({ ...site, title: "Runway <3", excerpt: null, contentHtml: "<p>x</p>", postUrl: downloadUrl, unsubscribeUrl }),
    ];
    for (const email of emails) {
      const head = /<head>([\s\S]*?)<\/head>/.exec(email.html)?.[1] ?? "";
      expect(head).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
      expect(decodeEntities(/<title>([^<]*)<\/title>/.exec(head)?.[1] ?? "")).toBe(email.subject);
    }
  });
});

const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe("buttons", () => {
  it("carry their address once in each part: no repeated 'paste this' link for filters to count", async () => {
    const emails = [
      [await renderConfirmationEmail({ ...site, confirmUrl }), [confirmUrl]],
      [await renderDownloadEmail({ ...site, resourceTitle: "Kit", downloadUrl, confirmUrl, unsubscribeUrl: null }), [downloadUrl, confirmUrl]],
    ] as const;
    for (const [email, urls] of emails) {
      expect(email.html).not.toMatch(/paste this/i);
      for (const url of urls) {
        expect(occurrences(decodeEntities(email.html), url)).toBe(1);
        expect(occurrences(email.text, url)).toBe(1);
      }
    }
  });
});

describe("links", () => {
  it("must be absolute http(s) URLs: a path or another scheme is a caller's mistake, named", async () => {
    await expect(
      renderDownloadEmail({ ...site, resourceTitle: "Kit", downloadUrl: "/api/downloads/7/file", confirmUrl: null, unsubscribeUrl: null }),
    ).rejects.toThrow(/downloadUrl must be an absolute http:\/\/ or https:\/\/ URL \(got "\/api\/downloads\/7\/file"\)/);
    await expect(renderConfirmationEmail({ ...site, confirmUrl: "javascript:alert(1)" })).rejects.toThrow(/confirmUrl must be/);
    await expect(renderWelcomeEmail({ ...site, siteUrl: "nofilter.example", unsubscribeUrl })).rejects.toThrow(/siteUrl must be/);
  });
});
