import { socialCardSize } from "./social-image.ts";
import type { Post } from "../core/posts/post.schema.ts";
import { postSummary } from "./post-excerpt.ts";

/** The site as schema.org names it: an `Organization` with its address, logo and profiles. */
export interface SiteIdentity {
  name: string;
  /** The site's home, absolute, with its trailing slash. */
  url: string;
  logo: string;
  /** The social profiles the owner shows (the footer's links), for `sameAs`. */
  profiles: readonly string[];
}

const organization = (site: SiteIdentity) => ({
  "@type": "Organization",
  name: site.name,
  url: site.url,
  logo: site.logo,
  ...(site.profiles.length > 0 && { sameAs: [...site.profiles] }),
});

/**
 * schema.org `BlogPosting` for a post page: `mainEntityOfPage` is the page's canonical URL (trailing
 * slash included), the image its social card with its size. `<` is escaped in the page (`\u003c`)
 * so text can never close the JSON-LD script element.
 */
export function blogPostingJsonLd(
  post: Post,
  page: { canonical: string; image: string | undefined; keywords: readonly string[] },
  site: SiteIdentity,
): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: post.title,
    description: postSummary(post),
    datePublished: post.publishedAt ?? post.createdAt,
    dateModified: post.updatedAt,
    mainEntityOfPage: page.canonical,
    url: page.canonical,
    ...(page.image && {
      image: {
        "@type": "ImageObject",
        url: page.image,
        width: socialCardSize.width,
        height: socialCardSize.height,
        ...(post.featuredImageAlt && { caption: post.featuredImageAlt }),
      },
    }),
    ...(post.category && { articleSection: post.category }),
    ...(page.keywords.length > 0 && { keywords: page.keywords.join(", ") }),
    inLanguage: "en",
    author: organization(site),
    publisher: organization(site),
  };
}

/** The home page's `WebSite` and `Organization`, one graph. */
export function homeJsonLd(site: SiteIdentity, description: string): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "WebSite",
        "@id": `${site.url}#website`,
        name: site.name,
        url: site.url,
        description,
        inLanguage: "en",
        publisher: { "@id": `${site.url}#organization` },
      },
      { ...organization(site), "@id": `${site.url}#organization` },
    ],
  };
}

/** JSON for inside a `<script>` element: no `<` survives, so `</script>` can't be formed. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** The site's identity for JSON-LD: its home and logo absolute on `site` (relative without one, as locally). */
export function siteIdentity(profiles: readonly string[], site: URL | undefined): SiteIdentity {
  const absolute = (path: string) => (site ? new URL(path, site).href : path);
  return { name: "No Filter", url: absolute("/"), logo: absolute("/favicon.svg"), profiles };
}
