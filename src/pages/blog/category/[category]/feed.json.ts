import { changedOnly } from "../../../../lib/build-data.ts";
import type { APIContext, GetStaticPaths } from "astro";
import { categoryFeedPaths, feedResponse, type categoryFeedScope } from "../../../../lib/site-feeds.ts";

export const getStaticPaths = (async () =>
  changedOnly(
    "category-feed.json",
    await categoryFeedPaths(),
    (entry) => `/blog/category/${entry.params.category}/feed.json`,
  )) satisfies GetStaticPaths;

/** A category's newest posts as a feed, like the site's. */
export const GET = (context: APIContext) =>
  feedResponse("json", (context.props as { scope: ReturnType<typeof categoryFeedScope> }).scope, context.site);
