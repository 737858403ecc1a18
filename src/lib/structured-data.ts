import type { Post } from "../core/posts/post.schema.ts";
import { postSummary } from "./post-excerpt.ts";

/**
 * schema.org `BlogPosting` for a post page. `<` is escaped in the page (`\u003c`) so text can never
 * close the JSON-LD script element.
 */
export function blogPostingJsonLd(post: Post, site: URL | undefined): Record<string, unknown> {
  const absolute = (path: string) => (site ? new URL(path, site).href : path);
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: post.title,
    description: postSummary(post),
    datePublished: post.publishedAt ?? post.createdAt,
    dateModified: post.updatedAt,
    mainEntityOfPage: absolute(post.url),
    ...(post.featuredImage && { image: absolute(post.featuredImage) }),
    ...(post.category && { articleSection: post.category }),
    author: { "@type": "Organization", name: "No Filter" },
    publisher: { "@type": "Organization", name: "No Filter", logo: absolute("/favicon.svg") },
  };
}

/** JSON for inside a `<script>` element: no `<` survives, so `</script>` can't be formed. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}
