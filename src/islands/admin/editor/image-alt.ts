/**
 * The post's own images must each say what they show, or be marked decorative (`alt=""`): an
 * image with no alt attribute at all is one nobody has described yet (issue 33, point 5).
 */
export const undescribedImageMessage = "Describe this image (alt text), or tick decorative.";

/** The content error while an image in the post has no alt attribute. */
export const undescribedImagesMessage = "Every image in the content needs alt text or the decorative mark: click an image to describe it.";

const imageTag = /<img\b[^>]*>/gi;
const altAttribute = /\salt\s*=/i;

/** How many images in the editor's HTML have no alt attribute (not described, not decorative). */
export function undescribedImages(html: string): number {
  return [...html.matchAll(imageTag)].filter(([tag]) => !altAttribute.test(tag)).length;
}
