import { describe, expect, it } from "vitest";
import type { Post } from "../core/posts/post.schema.ts";
import { blogPostingJsonLd, homeJsonLd, scriptSafeJson, siteIdentity } from "./structured-data.ts";

const post: Post = {
  id: 7,
  title: "The round that almost didn't close",
  content: "<p>It closed.</p>",
  excerpt: "Three weeks of silence.",
  emailSubject: null,
  category: "Funding",
  readTime: 6,
  published: true,
  publishedAt: "2026-03-01T08:00:00.000Z",
  createdAt: "2026-02-20T08:00:00.000Z",
  updatedAt: "2026-03-04T10:00:00.000Z",
  featuredImage: "/api/files/images/cover_1600x900.jpg",
  featuredImageAlt: "A term sheet",
  featuredImageFocus: null,
  slug: "the-round",
  url: "/blog/the-round",
  publishAt: null,
  tags: ["seed"],
  sendAsNewsletter: false,
  commentsClosed: false,
  commentCount: 0,
  fediverse: { likes: 0, boosts: 0, replies: 0 },
};
const site = siteIdentity(["https://x.com/nofilter"], new URL("https://nofilter.example"));

describe("structured data", () => {
  it("describes a post as a BlogPosting: canonical URL with its slash, modified date, sized image, keywords, author with url", () => {
    const data = blogPostingJsonLd(
      post,
      { canonical: "https://nofilter.example/blog/the-round/", image: "https://nofilter.example/card.jpg", keywords: ["Funding", "Seed"] },
      site,
    );
    expect(data).toMatchObject({
      "@type": "BlogPosting",
      headline: post.title,
      mainEntityOfPage: "https://nofilter.example/blog/the-round/",
      datePublished: "2026-03-01T08:00:00.000Z",
      dateModified: "2026-03-04T10:00:00.000Z",
      image: { "@type": "ImageObject", url: "https://nofilter.example/card.jpg", width: 1200, height: 630, caption: "A term sheet" },
      keywords: "Funding, Seed",
      articleSection: "Funding",
      author: { "@type": "Organization", name: "No Filter", url: "https://nofilter.example/" },
    });
    expect(blogPostingJsonLd({ ...post, featuredImage: null }, { canonical: "c", image: undefined, keywords: [] }, site)).not.toHaveProperty("image");
  });

  it("describes the home page as a WebSite published by an Organization with its profiles", () => {
    const graph = (homeJsonLd(site, "Honest stories") as { "@graph": Record<string, unknown>[] })["@graph"];
    expect(graph.map((node) => node["@type"])).toEqual(["WebSite", "Organization"]);
    expect(graph[0]).toMatchObject({ url: "https://nofilter.example/", publisher: { "@id": "https://nofilter.example/#organization" } });
    expect(graph[1]).toMatchObject({
      "@id": "https://nofilter.example/#organization",
      sameAs: ["https://x.com/nofilter"],
      logo: "https://nofilter.example/favicon.svg",
    });
  });

  it("never lets a text close the script element", () => {
    expect(scriptSafeJson({ headline: "</script><script>alert(1)</script>" })).not.toContain("<");
  });
});
