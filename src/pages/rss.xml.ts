import rss from "@astrojs/rss";
import type { APIContext } from "astro";
import { loadPublishedPosts } from "../lib/build-data.ts";
import { postSummary } from "../lib/post-excerpt.ts";

/** The published posts as an RSS feed, newest first. */
export async function GET(context: APIContext) {
  const posts = await loadPublishedPosts();
  return rss({
    title: "No Filter",
    description: "Wins. Fails. Funding. No Filter — honest stories for founders.",
    site: context.site ?? "http://localhost:8888",
    items: posts.map((post) => ({
      title: post.title,
      link: `/blog/${String(post.id)}/`,
      pubDate: new Date(post.publishedAt ?? post.createdAt),
      description: postSummary(post),
      ...(post.category && { categories: [post.category] }),
    })),
  });
}
