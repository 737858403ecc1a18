import type { Post } from "../core/posts/post.schema.ts";
import { postSummary } from "./post-excerpt.ts";

/** How many posts a feed carries: readers poll it often, so it stays small however long the blog. */
export const feedSize = 20;

/** The newest posts as a feed's items (the site's `rss.xml`, each tag's). */
export function feedItems(posts: readonly Post[]) {
  return posts.slice(0, feedSize).map((post) => ({
    title: post.title,
    link: `${post.url}/`,
    pubDate: new Date(post.publishedAt ?? post.createdAt),
    description: postSummary(post),
    ...(post.category && { categories: [post.category] }),
  }));
}
