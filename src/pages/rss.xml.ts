import rss from "@astrojs/rss";
import type { APIContext } from "astro";
import { loadPublishedPosts } from "../lib/build-data.ts";
import { feedItems } from "../lib/post-feed.ts";

/** The newest published posts as an RSS feed. */
export async function GET(context: APIContext) {
  return rss({
    title: "No Filter",
    description: "Wins. Fails. Funding. No Filter — honest stories for founders.",
    site: context.site ?? "http://localhost:8888",
    items: feedItems(await loadPublishedPosts()),
  });
}
