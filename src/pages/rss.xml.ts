import type { APIContext } from "astro";
import { loadPublishedPosts } from "../lib/build-data.ts";
import { feedResponse, siteFeedScope } from "../lib/site-feeds.ts";

/** The site's newest posts as a feed (src/core/feeds/feeds.ts). */
export const GET = async (context: APIContext) => feedResponse("rss", siteFeedScope(await loadPublishedPosts()), context.site);
