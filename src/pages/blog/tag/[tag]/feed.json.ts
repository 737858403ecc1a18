import type { APIContext, GetStaticPaths } from "astro";
import { feedResponse, tagFeedPaths, type tagFeedScope } from "../../../../lib/site-feeds.ts";

export const getStaticPaths = tagFeedPaths satisfies GetStaticPaths;

/** A tag's newest posts as a feed, like the site's. */
export const GET = (context: APIContext) => feedResponse("json", (context.props as { scope: ReturnType<typeof tagFeedScope> }).scope, context.site);
