import rss from "@astrojs/rss";
import type { APIContext, GetStaticPaths } from "astro";
import type { Post } from "../../../../core/posts/post.schema.ts";
import type { Tag } from "../../../../core/posts/tag.schema.ts";
import { postsByTag } from "../../../../lib/blog-pages.ts";
import { loadPublishedPosts, loadTags } from "../../../../lib/build-data.ts";
import { feedItems } from "../../../../lib/post-feed.ts";

export const getStaticPaths = (async () =>
  postsByTag(await loadPublishedPosts(), await loadTags()).map(({ tag, posts }) => ({
    params: { tag: tag.slug },
    props: { tag, posts },
  }))) satisfies GetStaticPaths;

/** A tag's newest published posts as an RSS feed, like the site's own. */
export function GET(context: APIContext) {
  const { tag, posts } = context.props as { tag: Tag; posts: Post[] };
  return rss({
    title: `No Filter — ${tag.name}`,
    description: tag.description ?? `Every post tagged ${tag.name} on No Filter.`,
    site: context.site ?? "http://localhost:8888",
    items: feedItems(posts),
  });
}
