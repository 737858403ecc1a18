import { isPublicFileUrl } from "../api/routes/files.routes.ts";
import { buildFeed, feedFormats, type FeedContent, type FeedFormat } from "../core/feeds/feeds.ts";
import type { Post, PostCategory } from "../core/posts/post.schema.ts";
import type { Tag } from "../core/posts/tag.schema.ts";
import { categoryPath, postsByCategory, postsByTag, tagPath } from "./blog-pages.ts";
import { loadPublishedPosts, loadSiteSettings, loadTags, loadWebsubHub } from "./build-data.ts";
import { postSummary } from "./post-excerpt.ts";

/** The site's name and the line under it, as every feed names them. */
export const siteName = "No Filter";
const siteDescription = "Wins. Fails. Funding. No Filter — honest stories for founders.";
/** Without SITE_URL (a local build), feeds still need absolute links. */
const localSite = "http://localhost:8888";

/** A feed's folder and titles: the site's, a category's or a tag's. */
interface FeedScope {
  folder: string;
  title: string;
  description: string;
  posts: readonly Post[];
}

export const siteFeedScope = (posts: readonly Post[]): FeedScope => ({ folder: "/", title: siteName, description: siteDescription, posts });

export const categoryFeedScope = (category: PostCategory, posts: readonly Post[]): FeedScope => ({
  folder: `${categoryPath(category)}/`,
  title: `${siteName} — ${category}`,
  description: `Every post in ${category} on ${siteName}.`,
  posts,
});

export const tagFeedScope = (tag: Tag, posts: readonly Post[]): FeedScope => ({
  folder: `${tagPath(tag.slug)}/`,
  title: `${siteName} — ${tag.name}`,
  description: tag.description ?? `Every post tagged ${tag.name} on ${siteName}.`,
  posts,
});

/** getStaticPaths of a category's feeds. */
export const categoryFeedPaths = async () =>
  postsByCategory(await loadPublishedPosts()).map(({ category, posts }) => ({
    params: { category: categoryPath(category).split("/").pop() ?? "" },
    props: { scope: categoryFeedScope(category, posts) },
  }));

/** getStaticPaths of a tag's feeds. */
export const tagFeedPaths = async () =>
  postsByTag(await loadPublishedPosts(), await loadTags()).map(({ tag, posts }) => ({
    params: { tag: tag.slug },
    props: { scope: tagFeedScope(tag, posts) },
  }));

/** The answer of one feed endpoint (`/rss.xml`, `/blog/tag/{slug}/atom.xml`, …). */
export async function feedResponse(format: FeedFormat, scope: FeedScope, site: URL | undefined): Promise<Response> {
  const [settings, tags, hub] = await Promise.all([loadSiteSettings(), loadTags(), loadWebsubHub()]);
  const body = buildFeed(format, {
    site: { url: site?.href ?? localSite, name: siteName, description: siteDescription, language: "en" },
    ...scope,
    tagNames: new Map(tags.map((tag) => [tag.slug, tag.name])),
    content: (settings.feed_content === "excerpt" ? "excerpt" : "full") satisfies FeedContent,
    isOwnImage: isPublicFileUrl,
    summaryOf: postSummary,
    hub,
  });
  return new Response(body, { headers: { "Content-Type": `${feedFormats[format].type}; charset=utf-8` } });
}

/** A category's feeds, as its pages announce them. */
export const categoryFeed = (category: PostCategory) => {
  const { folder, title } = categoryFeedScope(category, []);
  return { folder, title };
};

/** A tag's feeds, as its pages announce them. */
export const tagFeed = (tag: Tag) => {
  const { folder, title } = tagFeedScope(tag, []);
  return { folder, title };
};
