import sanitizeHtml from "sanitize-html";
import { imageCdnUrl, imageSizeOf } from "../files/image-sizes.ts";

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
  // The width rules are added per image (imageStyle): they depend on how wide the image is.
  img: "display:block;height:auto;border:0;margin:0 0 16px",
};

/** The content column's width in pixels (600px less the padding and borders): no image is wider. */
export const emailImageWidth = 538;

/**
 * An image's width rules. Its natural width is known when its stored name carries its size
 * (`_<w>x<h>.`) or the post gave a `width`: then it is fluid (`width:100%`) up to the smaller of that
 * width and the column, and gets it as a `width` attribute too (Outlook ignores max-width) — a
 * narrow phone shrinks it, nothing stretches it. An image of unknown size (stored before names
 * carried sizes) only shrinks (`max-width:100%`), never forced to the column: a small one keeps its
 * size everywhere, at the price of a wide one overflowing in desktop Outlook.
 */
function imageWidth(src: string | undefined, widthAttribute: string | undefined): { style: string; width?: string } {
  const given = widthAttribute !== undefined && /^\d{1,5}$/.test(widthAttribute) ? Number(widthAttribute) : undefined;
  const natural = (src === undefined ? undefined : imageSizeOf(src)?.width) ?? given;
  if (natural === undefined || natural <= 0) return { style: "max-width:100%" };
  const width = Math.min(natural, emailImageWidth);
  return { style: `width:100%;max-width:${String(width)}px`, width: String(width) };
}

/**
 * The widest file an email gets: the column at 2× (1,076 px, under the 1,200 px issue 41 asks for).
 * A phone photo stored at 2,560 px was mailed whole (1–3 MB to every reader, per image).
 */
export const emailImageFileWidth = emailImageWidth * 2;

/**
 * A stored image wider than `emailImageFileWidth`, as the Image CDN's copy at that width: JPEG for
 * photos (WebP and AVIF do not show in every mail client), PNG for a PNG (its transparency), a GIF
 * untouched (its animation). Anything else (another site's image, a size not known) as it is.
 */
function emailImageSource(src: string, base: string): string {
  const url = new URL(src);
  const site = new URL(base);
  const size = imageSizeOf(url.pathname);
  if (url.origin !== site.origin || !url.pathname.startsWith("/api/files/images/") || !size || size.width <= emailImageFileWidth) return src;
  const extension = url.pathname.split(".").pop()?.toLowerCase();
  if (extension === "gif") return src;
  return new URL(imageCdnUrl(url.pathname, { width: emailImageFileWidth, format: extension === "png" ? "png" : "jpg" }), base).toString();
}

function absolute(value: string, base: string): string | undefined {
  return URL.canParse(value, base) ? new URL(value, base).toString() : undefined;
}

/**
 * The HTML with its first block's top margin taken off: a body that opens the content column (a
 * sequence step has no heading of the template's above it) would otherwise start with an empty
 * band, the column's padding and a heading's 24px margin on top of each other.
 */
export function withoutLeadingMargin(html: string): string {
  return html.replace(/^(<[a-z0-9]+\b[^>]*?\sstyle=")margin:([^;"]+)/, (_, opening: string, margin: string) => {
    const [top = "0", right = top, bottom = top, left = right] = margin.trim().split(/\s+/);
    return `${opening}margin:0 ${right} ${bottom} ${left}`;
  });
}

/**
 * A post's sanitized HTML made fit for an email: every link and image source absolute on the site
 * (an email is read far from it), images fluid and never wider than the column nor their own width, and the brand inlined on each element.
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
        const kept = Object.fromEntries(Object.entries(attribs).filter(([name]) => name !== "src" && name !== "width"));
        const sized = imageWidth(src, attribs.width);
        const style = `${sized.style};${tagStyles.img ?? ""}`;
        const file = src && emailImageSource(src, base);
        return {
          tagName,
          attribs: { ...kept, ...(file && { src: file }), alt: attribs.alt ?? "", ...(sized.width && { width: sized.width }), style },
        };
      },
    },
    exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
  }).trim();
}
