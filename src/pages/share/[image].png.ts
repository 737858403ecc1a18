import type { GetStaticPaths } from "astro";
import type { Post } from "../../core/posts/post.schema.ts";
import { loadPublishedPosts, loadShareImage, loadSiteSettings } from "../../lib/build-data.ts";
import { shareImageInput, shareImageName, sharesGeneratedImage } from "../../lib/social-image.ts";

/**
 * `/share/{slug}-{key}.png`: the share image of each post that shares one (no cover, or the
 * `share_image` setting), drawn at build time and reused from the build's cache while the post is
 * unchanged. docs/decisions/0078-share-images.md
 */
export const getStaticPaths = (async () => {
  const [posts, settings] = await Promise.all([loadPublishedPosts(), loadSiteSettings()]);
  return posts.filter((post) => sharesGeneratedImage(post, settings)).map((post) => ({ params: { image: shareImageName(post) }, props: { post } }));
}) satisfies GetStaticPaths;

export const GET = async ({ props }: { props: { post: Post } }) =>
  new Response(Buffer.from(await loadShareImage(shareImageInput(props.post))), { headers: { "Content-Type": "image/png" } });
