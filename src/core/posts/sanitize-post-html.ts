import sanitizeHtml from "sanitize-html";
import { linkSchemes } from "./link-schemes.ts";

/**
 * Exactly what the editor (TipTap) can produce: anything else a request carries — scripts, styles,
 * iframes, forms, event handlers — is dropped rather than escaped, since post HTML is rendered
 * as is on the public pages.
 */
const allowedTags = [
  "p",
  "br",
  "strong",
  "em",
  "s",
  "code",
  "pre",
  "blockquote",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "hr",
  "a",
  "img",
  // Not made by the editor, but imports carry them (WordPress, Ghost): an image with its caption.
  "figure",
  "figcaption",
  // A poll the editor placed (issue 42 point 6): `<div data-poll="ID">` around its question and answers as text.
  "div",
];

/**
 * Which image sources a post keeps: only the site's own stored images. The site's CSP loads images
 * from its own origin alone, so one from elsewhere would show broken; a data: URL could carry SVG
 * with script; any other path on our origin may not be an image.
 */
export type IsOwnImage = (src: string) => boolean;

/** The attributes a post keeps, by tag. */
const allowedAttributes = { a: ["href", "target", "rel"], img: ["src", "alt"], div: ["data-poll"] };

/** A poll's block keeps its div; any other div (an import's) goes, its content kept, as before divs were allowed. */
const pollDiv = (tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag => {
  const id = attribs["data-poll"];
  return id !== undefined && /^[1-9]\d{0,9}$/.test(id) ? { tagName, attribs: { "data-poll": id } } : { tagName: "nf-unwrapped", attribs: {} };
};

/** What the sanitizer keeps (the feeds pass a post through it again: src/core/feeds/feeds.ts). */
export const postHtmlAllowed = { allowedTags, allowedAttributes } as const;

const options = (isOwnImage: IsOwnImage): sanitizeHtml.IOptions => ({
  allowedTags,
  allowedAttributes,
  allowedSchemes: [...linkSchemes],
  allowedSchemesByTag: { img: [] },
  // `//host/path` would slip past the scheme list while loading from anywhere.
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    div: pollDiv,
    // A page opened with target=_blank could otherwise reach back through window.opener
    // (reverse tabnabbing) and would learn our URL from the Referer.
    a: (tagName, attribs) => {
      if (attribs.target !== "_blank") return { tagName, attribs };
      return { tagName, attribs: { ...attribs, rel: "noopener noreferrer" } };
    },
  },
  // Runs on the filtered attributes: an image whose src was removed, or is not allowed, goes whole.
  exclusiveFilter: (frame) => frame.tag === "img" && !(frame.attribs.src && isOwnImage(frame.attribs.src)),
});

/** Post HTML reduced to what the editor produces and safe to render on the site. */
export function sanitizePostHtml(html: string, isOwnImage: IsOwnImage): string {
  return sanitizeHtml(html, options(isOwnImage)).trim();
}

/** True when sanitized HTML shows nothing: no text and no image (e.g. an empty editor's `<p></p>`). */
export function isEmptyPostHtml(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} });
  return text.replace(/&nbsp;|\s/g, "").length === 0;
}
