import { loadPublishedPosts, loadShareImages, loadSiteSettings } from "../lib/build-data.ts";
import { shareImageInput, shareImageName, sharesGeneratedImage } from "../lib/social-image.ts";

/**
 * The share image of each post that shares one (no cover, or the `share_image` setting), drawn now
 * unless the build's cache already holds it; the answer names each image's cached file, and the
 * build's last step (netlify/share-images.ts) links them into `/share/` and deletes this file. One
 * route instead of one per image: at 1,000 posts, routes cost more than the links.
 * docs/decisions/0078-share-images.md
 */
export const GET = async () => {
  const [posts, settings] = await Promise.all([loadPublishedPosts(), loadSiteSettings()]);
  const shared = posts.filter((post) => sharesGeneratedImage(post, settings));
  return Response.json(await loadShareImages(shared.map((post) => ({ name: shareImageName(post), input: shareImageInput(post) }))));
};
