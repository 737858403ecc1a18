import { ValidationError } from "../errors.ts";
import { exportDate, type ImportedPost } from "./imported-post.ts";

export const notGhostMessage = "This file is not a Ghost export (a JSON file with db[0].data.posts).";

interface GhostPost {
  id?: unknown;
  uuid?: unknown;
  title?: unknown;
  slug?: unknown;
  html?: unknown;
  feature_image?: unknown;
  feature_image_alt?: unknown;
  status?: unknown;
  type?: unknown;
  page?: unknown;
  published_at?: unknown;
  created_at?: unknown;
  custom_excerpt?: unknown;
}

interface GhostData {
  posts?: GhostPost[];
  tags?: { id?: unknown; name?: unknown }[];
  posts_tags?: { post_id?: unknown; tag_id?: unknown; sort_order?: unknown }[];
  posts_meta?: { post_id?: unknown; feature_image_alt?: unknown }[];
}

const text = (value: unknown): string => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");

/** The `data` of an export: Ghost 4 and 5 write `{ db: [{ meta, data }] }`; older tools wrote `{ meta, data }`. */
function ghostData(json: unknown): GhostData {
  const root = json as { db?: { data?: GhostData }[]; data?: GhostData } | null;
  const data = root?.db?.[0]?.data ?? root?.data;
  if (!data || !Array.isArray(data.posts)) throw new ValidationError(notGhostMessage);
  return data;
}

const states: Record<string, ImportedPost["state"]> = { published: "published", draft: "draft", scheduled: "scheduled", sent: "published" };

/**
 * The posts of a Ghost 4 or 5 JSON export (pages left out): their `html`, slug, state and dates,
 * tags in order, the feature image and the excerpt. The old address is Ghost's default `/{slug}/`.
 */
export function readGhostExport(bytes: Uint8Array): ImportedPost[] {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ValidationError(notGhostMessage);
  }
  const data = ghostData(json);
  const tagNames = new Map((data.tags ?? []).map((tag) => [text(tag.id), text(tag.name)]));
  // Ghost 4+ keeps the feature image's alt text in posts_meta (older exports on the post itself).
  const altOf = new Map((data.posts_meta ?? []).map((meta) => [text(meta.post_id), text(meta.feature_image_alt).trim()]));
  const tagsOf = new Map<string, { name: string; order: number }[]>();
  for (const link of data.posts_tags ?? []) {
    const name = tagNames.get(text(link.tag_id));
    if (!name) continue;
    const list = tagsOf.get(text(link.post_id)) ?? [];
    list.push({ name, order: Number(link.sort_order ?? 0) });
    tagsOf.set(text(link.post_id), list);
  }
  const posts: ImportedPost[] = [];
  for (const post of data.posts ?? []) {
    if (post.type === "page" || post.page === true || post.page === 1) continue;
    const id = text(post.id) || text(post.uuid);
    if (!id) continue;
    const html = text(post.html);
    const state = states[text(post.status)] ?? "draft";
    const slug = text(post.slug) || null;
    const warnings: string[] = [];
    if (!html.trim()) warnings.push("The export holds no HTML for this post (Ghost writes it only for posts saved by Ghost 4 or later).");
    if (!states[text(post.status)]) warnings.push(`Unknown status "${text(post.status)}": imported as a draft.`);
    posts.push({
      sourceId: id,
      title: text(post.title).trim() || "Untitled",
      html,
      slug,
      state,
      publishedAt: exportDate(post.published_at),
      createdAt: exportDate(post.created_at),
      excerpt: text(post.custom_excerpt).trim() || null,
      tags: (tagsOf.get(text(post.id)) ?? []).sort((a, b) => a.order - b.order).map((tag) => tag.name),
      featureImage: text(post.feature_image) || null,
      featureImageAlt: altOf.get(text(post.id)) || text(post.feature_image_alt).trim() || null,
      oldUrl: slug && state === "published" ? `/${slug}/` : null,
      warnings,
    });
  }
  return posts;
}
