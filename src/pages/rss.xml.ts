import rss from "@astrojs/rss";
import type { APIContext } from "astro";
import { loadPublishedPosts } from "../lib/build-data.ts";
import { postSummary } from "../lib/post-excerpt.ts";

/** How many posts the feed carries: readers poll it often, so it stays small however long the blog. */
const feedSize = 20;

/** The newest published posts as an RSS feed. */
export async function GET(context: APIContext) {
  const posts = await loadPublishedPosts();
  return rss({
    title: "No Filter",
    description: "Wins. Fails. Funding. No Filter — honest stories for founders.",
    site: context.site ?? "http://localhost:8888",
    items: posts.slice(0, feedSize).map((post) => ({
      title: post.title,
      link: `${post.url}/`,
      pubDate: new Date(post.publishedAt ?? post.createdAt),
      description: postSummary(post),
      ...(post.category && { categories: [post.category] }),
    })),
  });
}
