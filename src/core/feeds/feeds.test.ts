import { parseFeed } from "feedsmith";
import Parser from "rss-parser";
import { describe, expect, it } from "vitest";
import type { Post } from "../posts/post.schema.ts";
import { buildFeed, feedLinks, feedSize, type FeedContent, type FeedSource } from "./feeds.ts";

const post = (id: number, overrides: Partial<Post> = {}): Post => ({
  id,
  title: `Post ${String(id)} & friends`,
  content: `<p>Body of ${String(id)} with <a href="/blog/other">a link</a> and <img src="/api/files/images/in_800x600.png" alt="inline"></p>`,
  excerpt: null,
  emailSubject: null,
  category: "Funding",
  readTime: 5,
  published: true,
  publishedAt: `2026-03-${String(10 + (id % 10)).padStart(2, "0")}T08:00:00.000Z`,
  createdAt: "2026-03-01T00:00:00.000Z",
  updatedAt: `2026-04-${String(10 + (id % 10)).padStart(2, "0")}T09:30:00.000Z`,
  featuredImage: null,
  featuredImageAlt: null,
  featuredImageFocus: null,
  slug: `post-${String(id)}`,
  url: `/blog/post-${String(id)}`,
  publishAt: null,
  tags: [],
  sendAsNewsletter: false,
  commentsClosed: false,
  commentCount: 0,
  fediverse: { likes: 0, boosts: 0, replies: 0 },
  ...overrides,
});

const withCover = post(2, {
  featuredImage: "/api/files/images/cover_1600x900.jpg",
  featuredImageAlt: "A founder at a whiteboard",
  tags: ["pricing", "first-hires"],
  excerpt: "The short version.",
});

const source = (content: FeedContent = "full", posts: Post[] = [withCover, post(1)]): FeedSource => ({
  site: { url: "https://nofilter.example/", name: "No Filter", description: "Honest stories", language: "en" },
  folder: "/blog/category/funding/",
  title: "No Filter — Funding",
  description: "Every post in Funding.",
  posts,
  tagNames: new Map([
    ["pricing", "Pricing"],
    ["first-hires", "First hires"],
  ]),
  content,
  isOwnImage: (src) => src.startsWith("/api/files/images/"),
  summaryOf: (item) => item.excerpt ?? "Start of the text…",
});

const base = "https://nofilter.example";
const rssParser = new Parser({ customFields: { item: [["media:content", "media", { keepArray: true }]] } });

/** What both parsers must agree on, item by item. */
interface Seen {
  title: string | undefined;
  link: string | undefined;
  date: number | undefined;
  content: string | undefined;
}
const time = (value: unknown) => (value instanceof Date || typeof value === "string" ? new Date(value).getTime() : undefined);
/** An Atom text construct as feedsmith reads it: a string, or `{ value }`. */
const text = (construct: unknown): string | undefined =>
  typeof construct === "string" ? construct : (construct as { value?: string } | undefined)?.value;
const squash = (html: string | undefined) => html?.replace(/\s+/g, " ").trim();

describe("feeds", () => {
  it("writes RSS 2.0 that feedsmith and rss-parser read alike: full content, cover, categories, self link, language, last build date", async () => {
    const xml = buildFeed("rss", source());
    const first = parseFeed(xml);
    expect(first.format).toBe("rss");
    const second = await rssParser.parseString(xml);
    if (first.format !== "rss") throw new Error("not RSS");
    const feed = first.feed;
    expect(feed.language).toBe("en");
    expect(feed.atom?.links?.[0]).toMatchObject({ rel: "self", href: `${base}/blog/category/funding/rss.xml` });
    expect(new Date(String(feed.lastBuildDate)).toISOString()).toBe("2026-04-12T09:30:00.000Z");
    const a: Seen[] = (feed.items ?? []).map((item) => ({
      title: item.title,
      link: item.link,
      date: time(item.pubDate),
      content: squash(item.content?.encoded),
    }));
    const b: Seen[] = second.items.map((item) => ({
      title: item.title,
      link: item.link,
      date: time(item.pubDate),
      content: squash((item as { "content:encoded"?: string })["content:encoded"]),
    }));
    expect(a).toEqual(b);
    expect(a[0]).toMatchObject({ title: "Post 2 & friends", link: `${base}/blog/post-2/`, date: time("2026-03-12T08:00:00.000Z") });
    // The cover, in the content and as media:content with its size and alt text.
    expect(a[0]?.content).toContain(
      `<img src="${base}/api/files/images/cover_1600x900.jpg" alt="A founder at a whiteboard" width="1600" height="900" />`,
    );
    expect(feed.items?.[0]?.media?.contents?.[0]).toMatchObject({
      url: `${base}/api/files/images/cover_1600x900.jpg`,
      medium: "image",
      type: "image/jpeg",
      width: 1600,
      height: 900,
    });
    expect(feed.items?.[0]?.categories?.map((category) => category.name)).toEqual(["Funding", "Pricing", "First hires"]);
    expect(second.items[0]?.categories).toEqual(["Funding", "Pricing", "First hires"]);
    expect(feed.items?.[0]?.dc?.creators).toEqual(["No Filter"]);
    // Links and images absolute.
    expect(a[1]?.content).toContain(`<a href="${base}/blog/other">a link</a>`);
    expect(a[1]?.content).toContain(`<img src="${base}/api/files/images/in_800x600.png" alt="inline" />`);
  });

  it("writes Atom (RFC 4287) that feedsmith and rss-parser read alike, with published and updated", async () => {
    const xml = buildFeed("atom", source());
    const first = parseFeed(xml);
    const second = await rssParser.parseString(xml);
    if (first.format !== "atom") throw new Error(`not Atom: ${first.format}`);
    const feed = first.feed;
    expect(feed.id).toBe(`${base}/blog/category/funding/`);
    expect(feed.links).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rel: "self", href: `${base}/blog/category/funding/atom.xml` }),
        expect.objectContaining({ rel: "alternate", href: `${base}/blog/category/funding/` }),
      ]),
    );
    expect(xml).toContain('xml:lang="en"');
    expect(new Date(String(feed.updated)).toISOString()).toBe("2026-04-12T09:30:00.000Z");
    const a: Seen[] = (feed.entries ?? []).map((entry) => ({
      title: text(entry.title),
      link: entry.links?.find((link) => link.rel === "alternate")?.href,
      date: time(entry.published),
      content: squash(text(entry.content)),
    }));
    const b: Seen[] = second.items.map((item) => ({
      title: item.title,
      link: item.link,
      date: time(item.pubDate),
      content: squash(item.content),
    }));
    expect(a).toEqual(b);
    const entry = feed.entries?.[0];
    expect(entry?.id).toBe(`${base}/blog/post-2/`);
    expect(time(entry?.published)).toBe(time("2026-03-12T08:00:00.000Z"));
    expect(time(entry?.updated)).toBe(time("2026-04-12T09:30:00.000Z"));
    expect(entry?.authors?.[0]).toMatchObject({ name: "No Filter", uri: `${base}/` });
    expect(entry?.categories?.map((category) => category.term)).toEqual(["Funding", "Pricing", "First hires"]);
    expect(text(entry?.summary)).toBe("The short version.");
    expect(entry?.media?.contents?.[0]?.url).toBe(`${base}/api/files/images/cover_1600x900.jpg`);
  });

  it("writes JSON Feed 1.1 with the spec's required fields, read alike by feedsmith", () => {
    const text = buildFeed("json", source());
    const json = JSON.parse(text) as Record<string, unknown> & { items: Record<string, unknown>[] };
    // JSON Feed 1.1: version (the URL), title and items are required; each item an id and
    // content_html or content_text; feed_url and home_page_url strongly recommended.
    expect(json.version).toBe("https://jsonfeed.org/version/1.1");
    expect(json.title).toBe("No Filter — Funding");
    expect(json.home_page_url).toBe(`${base}/blog/category/funding/`);
    expect(json.feed_url).toBe(`${base}/blog/category/funding/feed.json`);
    expect(json.language).toBe("en");
    expect(Array.isArray(json.items)).toBe(true);
    for (const item of json.items) {
      expect(typeof item.id).toBe("string");
      expect(typeof item.content_html).toBe("string");
      expect(new Date(String(item.date_published)).toISOString()).toBe(item.date_published);
      expect(new Date(String(item.date_modified)).toISOString()).toBe(item.date_modified);
    }
    expect(json.items[0]).toMatchObject({
      url: `${base}/blog/post-2/`,
      image: `${base}/api/files/images/cover_1600x900.jpg`,
      tags: ["Funding", "Pricing", "First hires"],
      authors: [{ name: "No Filter", url: `${base}/` }],
    });
    const parsed = parseFeed(text);
    if (parsed.format !== "json") throw new Error("not JSON Feed");
    expect(parsed.feed.items?.map((item) => [item.title, item.url, time(item.date_published), item.content_html])).toEqual(
      json.items.map((item) => [item.title, item.url, time(item.date_published), item.content_html]),
    );
  });

  it("carries the same items, titles and content in the three formats", async () => {
    const rss = await rssParser.parseString(buildFeed("rss", source()));
    const atom = await rssParser.parseString(buildFeed("atom", source()));
    const json = JSON.parse(buildFeed("json", source())) as { items: { title: string; url: string; content_html: string }[] };
    const rows = (items: { title?: string; link?: string; content?: string }[]) => items.map((item) => [item.title, item.link, squash(item.content)]);
    const rssRows = rss.items.map((item) => ({ ...item, content: (item as { "content:encoded"?: string })["content:encoded"] }));
    expect(rows(rssRows)).toEqual(rows(atom.items));
    expect(rows(atom.items)).toEqual(rows(json.items.map((item) => ({ title: item.title, link: item.url, content: item.content_html }))));
  });

  it("carries the excerpt, the cover and a link instead of the whole post when the setting says excerpt", () => {
    const json = JSON.parse(buildFeed("json", source("excerpt"))) as { items: { content_html: string }[] };
    expect(json.items[0]?.content_html).toBe(
      `<p><img src="${base}/api/files/images/cover_1600x900.jpg" alt="A founder at a whiteboard" width="1600" height="900" /></p>` +
        `<p>The short version.</p><p><a href="${base}/blog/post-2/">Read the whole post</a></p>`,
    );
    expect(json.items[1]?.content_html).not.toContain("Body of 1");
    expect(buildFeed("rss", source("full"))).toContain("Body of 1");
  });

  it("passes post HTML through the post sanitizer again: what the page would not show, the feed does not carry", () => {
    const unsafe = post(3, {
      content: '<p onclick="x()">Hi<script>alert(1)</script><img src="https://tracker.example/p.gif"><a href="javascript:alert(1)">x</a></p>',
    });
    const json = JSON.parse(buildFeed("json", source("full", [unsafe]))) as { items: { content_html: string }[] };
    expect(json.items[0]?.content_html).toBe("<p>Hi<a>x</a></p>");
  });

  it("keeps the newest posts only, and an empty feed is still valid", async () => {
    const many = Array.from({ length: feedSize + 5 }, (_, index) => post(index + 1));
    expect((await rssParser.parseString(buildFeed("rss", source("full", many)))).items).toHaveLength(feedSize);
    for (const format of ["rss", "atom"] as const) expect(parseFeed(buildFeed(format, source("full", []))).format).toBe(format);
    expect((JSON.parse(buildFeed("json", source("full", []))) as { items: unknown[] }).items).toEqual([]);
  });

  it("names the three formats for autodiscovery under a feed's folder", () => {
    expect(feedLinks("/blog/tag/pricing", "No Filter — Pricing")).toEqual([
      { type: "application/rss+xml", href: "/blog/tag/pricing/rss.xml", title: "No Filter — Pricing (RSS)" },
      { type: "application/atom+xml", href: "/blog/tag/pricing/atom.xml", title: "No Filter — Pricing (Atom)" },
      { type: "application/feed+json", href: "/blog/tag/pricing/feed.json", title: "No Filter — Pricing (JSON Feed)" },
    ]);
  });

  it("names the WebSub hub in every format (RSS atom:link, Atom link, JSON Feed hubs), and none when there is none", async () => {
    const hub = "https://hub.example/";
    const withHub = { ...source(), hub };
    const rss = buildFeed("rss", withHub);
    expect(rss).toContain(`<atom:link href="${hub}" rel="hub"/>`);
    expect(rss).toContain('<atom:link href="https://nofilter.example/blog/category/funding/rss.xml" rel="self" type="application/rss+xml"/>');
    const atom = parseFeed(buildFeed("atom", withHub));
    expect(atom.format).toBe("atom");
    expect((atom.feed as { links?: { href?: string; rel?: string }[] }).links).toContainEqual(expect.objectContaining({ href: hub, rel: "hub" }));
    expect((JSON.parse(buildFeed("json", withHub)) as { hubs?: unknown }).hubs).toEqual([{ type: "WebSub", url: hub }]);
    // The two parsers still read the RSS feed with the hub in it.
    expect((await rssParser.parseString(rss)).items).toHaveLength(2);
    expect(buildFeed("rss", source())).not.toContain('rel="hub"');
    expect(JSON.parse(buildFeed("json", source()))).not.toHaveProperty("hubs");
  });
});
