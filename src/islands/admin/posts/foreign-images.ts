import { isPublicFileUrl } from "../../../api/routes/files.routes.ts";

const imageSource = /<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

/**
 * The images in the editor's HTML that a saved post would not keep: anything but the site's own
 * stored images (the server's sanitizer holds the same rule, `isPublicFileUrl`).
 */
export function foreignImageSources(html: string): string[] {
  return [...html.matchAll(imageSource)].map((match) => match[1] ?? match[2] ?? "").filter((src) => !isPublicFileUrl(src));
}
