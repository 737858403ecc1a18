import { parse } from "node-html-parser";
import { ValidationError } from "../errors.ts";
import { exportDate, membersOnlyWarning, type ImportedPost, type SourceItem } from "./imported-post.ts";
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

/** An attachment's file and the alt text the media library holds for it. */
interface Attachment {
  url: string;
  alt: string | null;
}

/** The attachments: id → file and alt text (a small map, read in a first pass). */
async function attachmentsOf(open: OpenChunks): Promise<{ attachments: Map<string, Attachment>; site: string | null }> {
  const attachments = new Map<string, Attachment>();
  let site: string | null = null;
  let sawChannel = false;
  for await (const event of readWxrEvents(open())) {
    if (event.kind === "channel") {
      sawChannel = true;
      site = event.fields.get("wp:base_blog_url") || event.fields.get("link") || event.fields.get("wp:base_site_url") || null;
      if (!event.fields.has("wp:wxr_version")) throw new ValidationError(`${notWxrMessage}it has no wp:wxr_version.`);
      continue;
    }
    const { fields, meta } = event.item;
    const url = fields.get("wp:attachment_url");
    if (fields.get("wp:post_type") === "attachment" && url)
      attachments.set(fields.get("wp:post_id")?.trim() ?? "", { url: url.trim(), alt: meta.get("_wp_attachment_image_alt")?.trim() || null });
  }
  if (!sawChannel) throw new ValidationError(`${notWxrMessage}it has no channel.`);
  return { attachments, site };
}

/**
 * Inline images WordPress inserted from the media library (class `wp-image-<id>`) without alt text
 * of their own take the alt text the library holds for that attachment.
 */
function withLibraryAlt(html: string, attachments: Map<string, Attachment>): string {
  if (!/wp-image-\d/.test(html)) return html;
  const root = parse(html);
  let changed = false;
  for (const image of root.querySelectorAll("img")) {
    if (image.getAttribute("alt")?.trim()) continue;
    const id = /\bwp-image-(\d+)\b/.exec(image.getAttribute("class") ?? "")?.[1];
    const alt = id ? attachments.get(id)?.alt : null;
    if (alt) {
      image.setAttribute("alt", alt);
      changed = true;
    }
  }
  return changed ? root.toString() : html;
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

const itemId = (item: WxrItem): string => item.fields.get("wp:post_id")?.trim() || item.fields.get("guid")?.trim() || "";
const titleOf = (item: WxrItem): string => item.fields.get("title")?.trim() || "Untitled";

function toPost(item: WxrItem, attachments: Map<string, Attachment>): ImportedPost {
  const { fields } = item;
  const status = fields.get("wp:status")?.trim() ?? "";
  const { html, warnings } = wordpressContent(fields.get("content:encoded") ?? "");
  const passworded = (fields.get("wp:post_password") ?? "").trim() !== "";
  if (status === "private") warnings.push("A private post: imported as a draft.");
  else if (passworded) warnings.push(membersOnlyWarning("readers with its password"));
  if (!(status in states)) warnings.push(`Unknown status "${status}": imported as a draft.`);
  const thumbnailId = item.meta.get("_thumbnail_id")?.trim();
  const featured = thumbnailId ? (attachments.get(thumbnailId) ?? null) : null;
  if (thumbnailId && !featured) warnings.push(`Its featured image (attachment ${thumbnailId}) is not in the export.`);
  const date = postDate(fields);
  const state = passworded ? "draft" : (states[status] ?? "draft");
  return {
    sourceId: itemId(item),
    title: titleOf(item),
    html: withLibraryAlt(html, attachments),
    slug: decodedSlug(fields.get("wp:post_name")?.trim() ?? ""),
    state,
    publishedAt: state === "published" || state === "scheduled" ? date : null,
    createdAt: date,
    excerpt: fields.get("excerpt:encoded")?.trim() || null,
    tags: item.categories.filter((category) => category.domain === "category").map((category) => category.name),
    postTags: item.categories.filter((category) => category.domain === "post_tag").map((category) => category.name),
    featureImage: featured?.url ?? null,
    featureImageAlt: featured?.alt ?? null,
    oldUrl: status === "publish" ? fields.get("link")?.trim() || null : null,
    warnings,
  };
}

/** Why an item that is not a post is left out, by its `wp:post_type`. */
const notPosts: Record<string, string> = {
  page: "A page: only posts are imported.",
  attachment: "An attachment: its image comes in with the post that shows it.",
  revision: "A revision: the post itself is imported.",
  nav_menu_item: "A menu item: menus are not imported.",
};

/** One item of the export: a post to import, or what it is and why it is left out. */
function toItem(item: WxrItem, attachments: Map<string, Attachment>): SourceItem {
  const type = item.fields.get("wp:post_type")?.trim() || "item";
  const kind = type.replace(/_/g, " ");
  const base = { kind, sourceId: itemId(item), title: titleOf(item) };
  if (type !== "post") return { ...base, skipped: notPosts[type] ?? `A ${kind}: only posts are imported.` };
  if (item.fields.get("wp:status")?.trim() === "trash") return { ...base, skipped: "In the trash on WordPress." };
  if (!base.sourceId) return { ...base, skipped: "It has no id in the export, so a second import could not know it." };
  return toPost(item, attachments);
}

/**
 * The items of a WordPress WXR 1.2 export, one at a time as the file streams: each post with its
 * content as the public page showed it, categories, the featured image and its alt text through
 * its attachment, and the status publish/draft/future/private as published/draft/scheduled/draft
 * (password-protected: a draft); every other item (pages, attachments, menus, revisions, the
 * trash) with the reason it is left out. `site` is the blog's address, for relative image links.
 */
export async function readWordpressExport(open: OpenChunks): Promise<{ site: string | null; items: AsyncGenerator<SourceItem> }> {
  const { attachments, site } = await attachmentsOf(open);
  async function* items(): AsyncGenerator<SourceItem> {
    for await (const event of readWxrEvents(open())) if (event.kind === "item") yield toItem(event.item, attachments);
  }
  return { site, items: items() };
}
