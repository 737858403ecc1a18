import { generateAtomFeed, generateJsonFeed, generateRssFeed } from "feedsmith";
import sanitizeHtml from "sanitize-html";
import { imageSizeOf } from "../files/image-sizes.ts";
import type { Post } from "../posts/post.schema.ts";
import { postHtmlAllowed, sanitizePostHtml, type IsOwnImage } from "../posts/sanitize-post-html.ts";
import { escapeHtml } from "../shared/escape-html.ts";

/**
 * The site's feeds: RSS 2.0, Atom (RFC 4287) and JSON Feed 1.1, for the whole site, a category or a
 * tag, all built here from one description of the feed (docs/decisions/0075-feeds-and-metadata.md).
 */

/** How many posts a feed carries: readers poll it often, so it stays small however long the blog. */
export const feedSize = 20;

/** The three formats, each at the same file name under the feed's folder (`/`, a category's, a tag's). */
export const feedFormats = {
  rss: { file: "rss.xml", type: "application/rss+xml", label: "RSS" },
  atom: { file: "atom.xml", type: "application/atom+xml", label: "Atom" },
  json: { file: "feed.json", type: "application/feed+json", label: "JSON Feed" },
} as const;

export type FeedFormat = keyof typeof feedFormats;

/** The site setting `feed_content`: the whole post in each item, or its excerpt and a link. */
export const feedContentModes = ["full", "excerpt"] as const;
export type FeedContent = (typeof feedContentModes)[number];

export interface FeedSite {
  /** The site's address, e.g. `https://example.com` (a trailing slash or not). */
  url: string;
  name: string;
  description: string;
  /** BCP 47, e.g. `en`. */
  language: string;
}

export interface FeedSource {
  site: FeedSite;
  /** The feed's folder on the site: `/`, `/blog/category/funding/`, `/blog/tag/pricing/`. */
  folder: string;
  title: string;
  description: string;
  /** Newest first; the feed keeps the first `feedSize`. */
  posts: readonly Post[];
  /** A tag's name by its slug (posts carry slugs). */
  tagNames: ReadonlyMap<string, string>;
  content: FeedContent;
  /** Which image sources post HTML keeps (the post sanitizer's rule). */
  isOwnImage: IsOwnImage;
  /** A post's summary as its card shows it (its excerpt, or the start of its text). */
  summaryOf: (post: Post) => string;
  /** The WebSub hub readers may subscribe at (`rel="hub"`, JSON Feed `hubs`); none: not named. */
  hub?: string | undefined;
}

/** A feed's autodiscovery links (`<link rel="alternate">`), one per format. */
export function feedLinks(folder: string, title: string): { type: string; href: string; title: string }[] {
  const base = folder.endsWith("/") ? folder : `${folder}/`;
  return Object.values(feedFormats).map((format) => ({ type: format.type, href: `${base}${format.file}`, title: `${title} (${format.label})` }));
}

const siteBase = (site: FeedSite) => `${site.url.replace(/\/+$/, "")}/`;
const absolute = (path: string, base: string) => (URL.canParse(path, base) ? new URL(path, base).href : undefined);

/** A post's page with its trailing slash, as its canonical link names it. */
export const postPageUrl = (post: Pick<Post, "url">, base: string) => new URL(`${post.url.replace(/\/+$/, "")}/`, base).href;

/**
 * Post HTML as a feed carries it: through the post sanitizer again (what the pages render), then
 * every link and image absolute (a reader shows it far from the site).
 */
export function feedHtml(html: string, base: string, isOwnImage: IsOwnImage): string {
  return sanitizeHtml(sanitizePostHtml(html, isOwnImage), {
    ...postHtmlAllowed,
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, ...(attribs.href && { href: absolute(attribs.href, base) ?? attribs.href }) } }),
      img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, ...(attribs.src && { src: absolute(attribs.src, base) ?? attribs.src }) } }),
    },
  });
}

interface FeedCover {
  url: string;
  alt: string;
  type: string;
  width?: number;
  height?: number;
}

const imageTypes: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
};

function coverOf(post: Post, base: string): FeedCover | undefined {
  if (!post.featuredImage) return undefined;
  const url = absolute(post.featuredImage, base);
  if (!url) return undefined;
  const extension = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? "";
  const size = imageSizeOf(post.featuredImage);
  return { url, alt: post.featuredImageAlt ?? "", type: imageTypes[extension] ?? "image/jpeg", ...size };
}

/** One post, the same for the three formats. */
interface FeedEntry {
  id: string;
  url: string;
  title: string;
  summary: string;
  html: string;
  published: Date;
  updated: Date;
  categories: string[];
  cover: FeedCover | undefined;
}

function entryOf(post: Post, source: FeedSource, base: string): FeedEntry {
  const url = postPageUrl(post, base);
  const cover = coverOf(post, base);
  const summary = source.summaryOf(post);
  const coverHtml = cover
    ? `<p><img src="${escapeHtml(cover.url)}" alt="${escapeHtml(cover.alt)}"${cover.width && cover.height ? ` width="${String(cover.width)}" height="${String(cover.height)}"` : ""} /></p>`
    : "";
  const body =
    source.content === "full"
      ? feedHtml(post.content, base, source.isOwnImage)
      : `<p>${escapeHtml(summary)}</p><p><a href="${escapeHtml(url)}">Read the whole post</a></p>`;
  const tags = post.tags.map((slug) => source.tagNames.get(slug) ?? slug);
  return {
    id: url,
    url,
    title: post.title,
    summary,
    html: coverHtml + body,
    published: new Date(post.publishedAt ?? post.createdAt),
    updated: new Date(post.updatedAt),
    categories: [...(post.category ? [post.category] : []), ...tags],
    cover,
  };
}

/** The feed's last change: its newest post's (not the build's time, so an unchanged feed stays byte for byte the same). */
function lastChange(entries: readonly FeedEntry[]): Date {
  const times = entries.map((entry) => Math.max(entry.updated.getTime(), entry.published.getTime()));
  return new Date(times.length > 0 ? Math.max(...times) : 0);
}

const mediaOf = (cover: FeedCover | undefined) =>
  cover && {
    contents: [
      {
        url: cover.url,
        medium: "image",
        type: cover.type,
        ...(cover.width && { width: cover.width }),
        ...(cover.height && { height: cover.height }),
        ...(cover.alt && { description: { value: cover.alt, type: "plain" } }),
      },
    ],
  };

/**
 * feedsmith pretty-prints, and puts a CDATA section on lines of its own: the spaces around it are
 * then part of the text, and a reader that does not trim shows a title starting with a line break
 * (rss-parser does). The section is glued back to its element.
 */
const tightCdata = (xml: string) => xml.replace(/>\s+<!\[CDATA\[/g, "><![CDATA[").replace(/\]\]>\s+</g, "]]><");

/** The feed in one format, as the text its file holds. */
export function buildFeed(format: FeedFormat, source: FeedSource): string {
  const base = siteBase(source.site);
  const folder = source.folder.endsWith("/") ? source.folder : `${source.folder}/`;
  const home = new URL(folder, base).href;
  const self = new URL(`${folder}${feedFormats[format].file}`, base).href;
  const entries = source.posts.slice(0, feedSize).map((post) => entryOf(post, source, base));
  const updated = lastChange(entries);
  const author = { name: source.site.name, url: base };

  if (format === "rss") {
    return tightCdata(
      generateRssFeed({
        title: source.title,
        link: home,
        description: source.description,
        language: source.site.language,
        lastBuildDate: updated,
        ...(entries[0] && { pubDate: entries[0].published }),
        atom: { links: [{ href: self, rel: "self", type: feedFormats.rss.type }, ...(source.hub ? [{ href: source.hub, rel: "hub" }] : [])] },
        items: entries.map((entry) => ({
          title: entry.title,
          link: entry.url,
          guid: { value: entry.id, isPermaLink: true },
          description: entry.summary,
          content: { encoded: entry.html },
          pubDate: entry.published,
          dc: { creators: [author.name] },
          atom: { updated: entry.updated },
          categories: entry.categories.map((name) => ({ name })),
          ...(entry.cover && { media: mediaOf(entry.cover) }),
        })),
      }),
    );
  }
  if (format === "atom") {
    return tightCdata(
      generateAtomFeed({
        id: home,
        title: { value: source.title },
        subtitle: { value: source.description },
        updated,
        links: [
          { href: self, rel: "self", type: feedFormats.atom.type },
          { href: home, rel: "alternate", type: "text/html" },
          ...(source.hub ? [{ href: source.hub, rel: "hub" }] : []),
        ],
        authors: [{ name: author.name, uri: author.url }],
        xml: { lang: source.site.language },
        entries: entries.map((entry) => ({
          id: entry.id,
          title: { value: entry.title },
          links: [{ href: entry.url, rel: "alternate", type: "text/html" }],
          published: entry.published,
          updated: entry.updated,
          summary: { value: entry.summary },
          content: { value: entry.html, type: "html" },
          authors: [{ name: author.name, uri: author.url }],
          categories: entry.categories.map((term) => ({ term })),
          ...(entry.cover && { media: mediaOf(entry.cover) }),
        })),
      }),
    );
  }
  const json = generateJsonFeed({
    title: source.title,
    home_page_url: home,
    feed_url: self,
    ...(source.hub && { hubs: [{ type: "WebSub", url: source.hub }] }),
    description: source.description,
    language: source.site.language,
    authors: [author],
    items: entries.map((entry) => ({
      id: entry.id,
      url: entry.url,
      title: entry.title,
      summary: entry.summary,
      content_html: entry.html,
      date_published: entry.published,
      date_modified: entry.updated,
      tags: entry.categories,
      authors: [author],
      ...(entry.cover && { image: entry.cover.url }),
    })),
  });
  // JSON Feed requires `items`, even empty; the generator leaves an empty list out.
  return `${JSON.stringify({ ...(json as object), items: (json as { items?: unknown[] }).items ?? [] }, null, 2)}\n`;
}
