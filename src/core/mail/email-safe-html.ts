import sanitizeHtml from "sanitize-html";

/**
 * Inline styles per tag: most mail clients (Gmail, Outlook) drop `<style>` blocks and classes, so
 * the brand has to sit on each element. Kept in step with email-theme.ts.
 */
const tagStyles: Record<string, string> = {
  p: "margin:0 0 16px;font-size:17px;line-height:28px;color:#0A0A0A",
  h1: "margin:24px 0 12px;font-size:24px;line-height:30px;color:#0A0A0A",
  h2: "margin:24px 0 12px;font-size:22px;line-height:28px;color:#0A0A0A",
  h3: "margin:20px 0 10px;font-size:19px;line-height:26px;color:#0A0A0A",
  h4: "margin:20px 0 10px;font-size:17px;line-height:26px;color:#0A0A0A",
  h5: "margin:16px 0 8px;font-size:16px;line-height:24px;color:#0A0A0A",
  h6: "margin:16px 0 8px;font-size:15px;line-height:22px;color:#0A0A0A",
  ul: "margin:0 0 16px;padding-left:24px;font-size:17px;line-height:28px;color:#0A0A0A",
  ol: "margin:0 0 16px;padding-left:24px;font-size:17px;line-height:28px;color:#0A0A0A",
  li: "margin:0 0 6px",
  blockquote: "margin:0 0 16px;padding:4px 0 4px 16px;border-left:4px solid #E11D2E;color:#0A0A0A",
  pre: "margin:0 0 16px;padding:12px;background-color:#F0F0EB;font-size:14px;line-height:20px;white-space:pre-wrap;word-break:break-word",
  code: "font-family:Menlo,Consolas,monospace;font-size:15px",
  hr: "margin:24px 0;border:none;border-top:3px solid #0A0A0A",
  a: "color:#0A0A0A;font-weight:700;text-decoration:underline",
  // Sized to the content column (600px less the padding and borders), never wider than the screen.
  img: "display:block;max-width:100%;height:auto;border:0;margin:0 0 16px",
};

/** The content column's width in pixels: images get it as a `width` attribute (Outlook ignores max-width). */
export const emailImageWidth = 538;

function absolute(value: string, base: string): string | undefined {
  return URL.canParse(value, base) ? new URL(value, base).toString() : undefined;
}

/**
 * A post's sanitized HTML made fit for an email: every link and image source absolute on the site
 * (an email is read far from it), images sized to the column, and the brand inlined on each element.
 * The input is already sanitized (sanitizePostHtml); this keeps only the same tags.
 */
export function emailSafeHtml(html: string, siteUrl: string): string {
  const base = `${siteUrl.replace(/\/+$/, "")}/`;
  const styled = (tagName: string, attribs: sanitizeHtml.Attributes) => {
    const style = tagStyles[tagName];
    return { tagName, attribs: style ? { ...attribs, style } : attribs };
  };
  return sanitizeHtml(html, {
    allowedTags: Object.keys(tagStyles).concat("br", "strong", "em", "s"),
    allowedAttributes: { "*": ["style"], a: ["href", "target", "rel", "style"], img: ["src", "alt", "width", "style"] },
    allowedSchemes: ["http", "https", "mailto", "tel"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    transformTags: {
      ...Object.fromEntries(Object.keys(tagStyles).map((tag) => [tag, styled])),
      // A link opens in the reader's mail client or browser anyway: `target` means nothing there.
      a: (tagName, attribs) => {
        const href = attribs.href === undefined ? undefined : absolute(attribs.href, base);
        const kept = Object.fromEntries(Object.entries(attribs).filter(([name]) => name !== "href" && name !== "target"));
        return styled(tagName, { ...kept, ...(href && { href }) });
      },
      img: (tagName, attribs) => {
        const src = attribs.src === undefined ? undefined : absolute(attribs.src, base);
        const kept = Object.fromEntries(Object.entries(attribs).filter(([name]) => name !== "src"));
        return styled(tagName, { ...kept, ...(src && { src }), alt: attribs.alt ?? "", width: String(emailImageWidth) });
      },
    },
    exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
  }).trim();
}
