import { changedOnly } from "../../../../lib/build-data.ts";
import type { APIContext, GetStaticPaths } from "astro";
import { categoryFeedPaths, feedResponse, type categoryFeedScope } from "../../../../lib/site-feeds.ts";

export const getStaticPaths = (async () =>
  changedOnly(
    "category-atom.xml",
    await categoryFeedPaths(),
    (entry) => `/blog/category/${entry.params.category}/atom.xml`,
  )) satisfies GetStaticPaths;

/** A category's newest posts as a feed, like the site's. */
export const GET = (context: APIContext) =>
  feedResponse("atom", (context.props as { scope: ReturnType<typeof categoryFeedScope> }).scope, context.site);
