import { postCategories, postsPerListPage, type Post, type PostCategory } from "../core/posts/post.schema.ts";
import { slugFromTitle } from "../core/posts/post-slug-rules.ts";
import type { Tag } from "../core/posts/tag.schema.ts";

/** Posts on one list page: four rows of three on a wide screen, a short scroll on a phone. */
export const postsPerPage = postsPerListPage;

/** One page of a post list (`/blog`, `/blog/page/2`, `/blog/category/funding/page/3`…). */
export interface BlogListPage {
  posts: Post[];
  /** From 1. */
  number: number;
  /** How many pages the list has (at least 1: an empty list still has its page). */
  count: number;
  /** This page's path. */
  path: string;
  previous: string | undefined;
  next: string | undefined;
}

/** Where page `number` of the list at `base` lives: the first at `base`, the rest under `/page/N`. */
export function listPagePath(base: string, number: number): string {
  return number === 1 ? base : `${base}/page/${String(number)}`;
}

/** Splits `posts` (already in order) into the pages of the list at `base`. */
export function blogListPages(posts: readonly Post[], base: string, perPage = postsPerPage): BlogListPage[] {
  const count = Math.max(1, Math.ceil(posts.length / perPage));
  return Array.from({ length: count }, (_, index) => {
    const number = index + 1;
    return {
      posts: posts.slice(index * perPage, number * perPage),
      number,
      count,
      path: listPagePath(base, number),
      previous: number > 1 ? listPagePath(base, number - 1) : undefined,
      next: number < count ? listPagePath(base, number + 1) : undefined,
    };
  });
}

/** A category's address segment (`Cash Flow` → `cash-flow`). */
export const categorySlug = (category: PostCategory): string => slugFromTitle(category);

/** The path of a category's list. */
export const categoryPath = (category: PostCategory): string => `/blog/category/${categorySlug(category)}`;

/** Every category with its posts (in list order), empty ones included: each has its page. */
export function postsByCategory(posts: readonly Post[]): { category: PostCategory; posts: Post[] }[] {
  return postCategories.map((category) => ({ category, posts: posts.filter((post) => post.category === category) }));
}

/** The path of a tag's list. */
export const tagPath = (slug: string): string => `/blog/tag/${slug}`;

/**
 * Every tag a published post carries, with its posts (in list order): each has its pages. A tag no
 * published post carries has no page yet (nothing to list, nothing for the sitemap).
 */
export function postsByTag(posts: readonly Post[], tags: readonly Tag[]): { tag: Tag; posts: Post[] }[] {
  return tags.map((tag) => ({ tag, posts: posts.filter((post) => post.tags.includes(tag.slug)) })).filter((entry) => entry.posts.length > 0);
}

/** A post's tags by name and path, in its order, for its page and card. */
export function postTagLinks(post: Pick<Post, "tags">, tags: readonly Tag[]): { name: string; path: string }[] {
  const bySlug = new Map(tags.map((tag) => [tag.slug, tag]));
  return post.tags.flatMap((slug) => {
    const tag = bySlug.get(slug);
    return tag ? [{ name: tag.name, path: tagPath(slug) }] : [];
  });
}
