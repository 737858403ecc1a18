import { ValidationError } from "../errors.ts";
import { exportDate, type ImportedPost } from "./imported-post.ts";
import { wordpressContent } from "./wordpress-content.ts";
import { notWxrMessage, readWxrEvents, type WxrItem } from "./wxr-items.ts";

/** Reopens the export from its start: the file is read twice (attachments, then posts), never held whole. */
export type OpenChunks = () => AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

const states: Record<string, ImportedPost["state"]> = {
  publish: "published",
  draft: "draft",
  pending: "draft",
  future: "scheduled",
  private: "draft",
};

/** The featured images' addresses: attachment id → URL (a small map, read in a first pass). */
async function attachmentUrls(open: OpenChunks): Promise<{ urls: Map<string, string>; site: string | null }> {
  const urls = new Map<string, string>();
  let site: string | null = null;
  let sawChannel = false;
  for await (const event of readWxrEvents(open())) {
    if (event.kind === "channel") {
      sawChannel = true;
      site = event.fields.get("wp:base_blog_url") || event.fields.get("link") || event.fields.get("wp:base_site_url") || null;
      if (!event.fields.has("wp:wxr_version")) throw new ValidationError(`${notWxrMessage}it has no wp:wxr_version.`);
      continue;
    }
    const { fields } = event.item;
    const url = fields.get("wp:attachment_url");
    if (fields.get("wp:post_type") === "attachment" && url) urls.set(fields.get("wp:post_id") ?? "", url.trim());
  }
  if (!sawChannel) throw new ValidationError(`${notWxrMessage}it has no channel.`);
  return { urls, site };
}

/** WordPress stores a non-ASCII slug percent-encoded; a malformed one is dropped (the title gives one). */
function decodedSlug(raw: string): string | null {
  try {
    return decodeURIComponent(raw) || null;
  } catch {
    return null;
  }
}

/** WordPress's local time with the GMT date beside it: the GMT one, when set. */
function postDate(fields: Map<string, string>): Date | null {
  const gmt = fields.get("wp:post_date_gmt")?.trim();
  if (gmt && !gmt.startsWith("0000")) return exportDate(`${gmt.replace(" ", "T")}Z`);
  const local = fields.get("wp:post_date")?.trim();
  return local ? exportDate(local.replace(" ", "T")) : null;
}

function toPost(item: WxrItem, attachments: Map<string, string>): ImportedPost {
  const { fields } = item;
  const status = fields.get("wp:status")?.trim() ?? "";
  const { html, warnings } = wordpressContent(fields.get("content:encoded") ?? "");
  if (status === "private") warnings.push("A private post: imported as a draft.");
  if (!(status in states)) warnings.push(`Unknown status "${status}": imported as a draft.`);
  const thumbnailId = item.meta.get("_thumbnail_id")?.trim();
  const featureImage = thumbnailId ? (attachments.get(thumbnailId) ?? null) : null;
  if (thumbnailId && !featureImage) warnings.push(`Its featured image (attachment ${thumbnailId}) is not in the export.`);
  const date = postDate(fields);
  return {
    sourceId: fields.get("wp:post_id")?.trim() || fields.get("guid")?.trim() || "",
    title: fields.get("title")?.trim() || "Untitled",
    html,
    slug: decodedSlug(fields.get("wp:post_name")?.trim() ?? ""),
    state: states[status] ?? "draft",
    publishedAt: status === "publish" || status === "future" ? date : null,
    createdAt: date,
    excerpt: fields.get("excerpt:encoded")?.trim() || null,
    tags: item.categories.filter((category) => category.domain === "category").map((category) => category.name),
    featureImage,
    oldUrl: status === "publish" ? fields.get("link")?.trim() || null : null,
    warnings,
  };
}

/**
 * The posts of a WordPress WXR 1.2 export (pages, attachments, menus and the rest left out), one at
 * a time as the file streams: content as the public page showed it, categories, the featured
 * image through its attachment, and the status publish/draft/future/private as
 * published/draft/scheduled/draft. `site` is the blog's address, for relative image links.
 */
export async function readWordpressExport(open: OpenChunks): Promise<{ site: string | null; posts: AsyncGenerator<ImportedPost> }> {
  const { urls, site } = await attachmentUrls(open);
  async function* posts(): AsyncGenerator<ImportedPost> {
    for await (const event of readWxrEvents(open())) {
      if (event.kind === "item" && event.item.fields.get("wp:post_type") === "post" && event.item.fields.get("wp:status") !== "trash") {
        const post = toPost(event.item, urls);
        if (post.sourceId) yield post;
      }
    }
  }
  return { site, posts: posts() };
}
