import { parse } from "node-html-parser";

/** Ghost's placeholder for its own address in exported HTML and image fields. */
const ghostUrlPlaceholder = "__GHOST_URL__";

/**
 * An image address from an export made absolute: Ghost's placeholder and relative paths are read
 * against the old site's address. Null when that cannot be done (say why in `reason`).
 */
export function absoluteImageUrl(src: string, siteUrl: string | null): { url: string } | { reason: string } {
  const trimmed = src.trim();
  if (trimmed.startsWith("data:")) return { reason: "An image inside the HTML (a data: address) is not imported" };
  const placeheld = trimmed.startsWith(ghostUrlPlaceholder) ? trimmed.slice(ghostUrlPlaceholder.length) || "/" : trimmed;
  try {
    const url = siteUrl ? new URL(placeheld, siteUrl) : new URL(placeheld);
    if (url.protocol !== "http:" && url.protocol !== "https:") return { reason: `Only http and https addresses are fetched (${url.protocol})` };
    return { url: url.href };
  } catch {
    return { reason: "A relative address: give the old site's address to fetch it" };
  }
}

/** The `src` of every image in the HTML, in order, once each. */
export function imageSources(html: string): string[] {
  const sources = parse(html)
    .querySelectorAll("img")
    .map((image) => image.getAttribute("src") ?? "")
    .filter((src) => src !== "");
  return [...new Set(sources)];
}

/**
 * The HTML with each image's `src` replaced (`srcset` and `sizes` dropped: they name the old site's
 * files), the image replaced by the text `replaceWith`, or (null) removed.
 */
export function replaceImageSources(html: string, replace: (src: string, alt: string | null) => string | { replaceWith: string } | null): string {
  const root = parse(html);
  for (const image of root.querySelectorAll("img")) {
    const src = image.getAttribute("src") ?? "";
    image.removeAttribute("srcset");
    image.removeAttribute("sizes");
    const next = src ? replace(src, image.getAttribute("alt") ?? null) : null;
    if (typeof next === "string") image.setAttribute("src", next);
    else if (next) image.replaceWith(next.replaceWith);
    else image.remove();
  }
  return root.toString();
}

/** Words in the HTML, for a read time at 200 words a minute. */
export function readTimeOf(html: string, limits: { min: number; max: number }): number {
  const words = parse(html).textContent.split(/\s+/).filter(Boolean).length;
  return Math.min(limits.max, Math.max(limits.min, Math.round(words / 200)));
}

/** The text of an HTML fragment (an excerpt). */
export const plainText = (html: string): string => parse(html).textContent.replace(/\s+/g, " ").trim();
