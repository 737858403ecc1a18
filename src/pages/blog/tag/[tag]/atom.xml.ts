import { changedOnly } from "../../../../lib/build-data.ts";
import type { APIContext, GetStaticPaths } from "astro";
import { feedResponse, tagFeedPaths, type tagFeedScope } from "../../../../lib/site-feeds.ts";

export const getStaticPaths = (async () =>
  changedOnly("tag-atom.xml", await tagFeedPaths(), (entry) => `/blog/tag/${entry.params.tag}/atom.xml`)) satisfies GetStaticPaths;

/** A tag's newest posts as a feed, like the site's. */
export const GET = (context: APIContext) => feedResponse("atom", (context.props as { scope: ReturnType<typeof tagFeedScope> }).scope, context.site);
