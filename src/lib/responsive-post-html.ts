import { isPublicFileUrl } from "../api/routes/files.routes.ts";
import { responsiveSources } from "../core/files/image-sizes.ts";
import { escapeHtml as escapeAttribute } from "../core/shared/escape-html.ts";

/** An `<img>` as the sanitizer writes it: double-quoted values in which `"`, `<` and `>` are escaped. */
const imgTag = /<img\b([^>]*?)\s*\/?>/g;
const attribute = (attributes: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(attributes)?.[1];

/** A post's article column: `max-w-4xl` inside `px-4`, less the cover's border (BlogPostArticle). */
export const articleSizes = "(min-width: 928px) 890px, calc(100vw - 2rem)";
/** A post's cover at the top of its article (BlogPostArticle through PostCover). */
export const articleCover = { layoutWidth: 890 } as const;

/**
 * A post's sanitized HTML with each stored image made responsive, as the covers are: WebP or JPEG
 * at the widths the screen needs from the Image CDN, its size set (no layout shift) when the name
 * carries it, and loaded lazily (a body image is never the first paint). `sizes` is the column's.
 * The newsletter keeps the plain HTML: mail clients get one absolute URL per image.
 */
export function responsivePostHtml(html: string, sizes: string, layoutWidth = 890): string {
  return html.replace(imgTag, (tag, attributes: string) => {
    const src = attribute(attributes, "src")?.replace(/&amp;/g, "&");
    if (!src || !isPublicFileUrl(src)) return tag;
    const image = responsiveSources(src, layoutWidth);
    const alt = attribute(attributes, "alt") ?? "";
    const size = image.width && image.height ? ` width="${String(image.width)}" height="${String(image.height)}"` : "";
    return (
      `<picture><source type="image/webp" srcset="${escapeAttribute(image.srcset)}" sizes="${escapeAttribute(sizes)}" />` +
      `<img src="${escapeAttribute(image.src)}" alt="${alt}"${size} loading="lazy" decoding="async" /></picture>`
    );
  });
}
