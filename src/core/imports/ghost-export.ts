import { ValidationError } from "../errors.ts";
import {
  countReason,
  csvField,
  exportDate,
  membersOnlyWarning,
  type ExportSubscribers,
  type ImportedPost,
  type SourceItem,
} from "./imported-post.ts";

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
  visibility?: unknown;
}

interface GhostMember {
  id?: unknown;
  email?: unknown;
  created_at?: unknown;
  subscribed?: unknown;
  email_disabled?: unknown;
}

interface GhostData {
  posts?: GhostPost[];
  tags?: { id?: unknown; name?: unknown }[];
  posts_tags?: { post_id?: unknown; tag_id?: unknown; sort_order?: unknown }[];
  posts_meta?: { post_id?: unknown; feature_image_alt?: unknown; email_subject?: unknown }[];
  post_revisions?: { id?: unknown; post_id?: unknown; title?: unknown }[];
  members?: GhostMember[];
  newsletters?: unknown[];
  members_newsletters?: { member_id?: unknown }[];
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

/** Ghost's `visibility` values that are not public, as the warning names them. */
const membersOnly: Record<string, string> = { members: "members", paid: "paying members", tiers: "some paying tiers" };

export const ghostUnsubscribed = "Unsubscribed on Ghost";
export const ghostEmailDisabled = "Email disabled on Ghost (it bounced or was marked as spam)";

/**
 * The members of a Ghost export, when it holds them: every address that still wants the
 * newsletter, for the subscriber import; the rest counted by reason. Ghost 5 keeps subscriptions in
 * `members_newsletters` (no row: unsubscribed from all); older exports say `subscribed`.
 */
function ghostMembers(data: GhostData): ExportSubscribers | null {
  if (!Array.isArray(data.members) || data.members.length === 0) return null;
  const byNewsletter = Array.isArray(data.members_newsletters) && Array.isArray(data.newsletters) && data.newsletters.length > 0;
  const subscribed = new Set((data.members_newsletters ?? []).map((link) => text(link.member_id)));
  const keptOut = new Map<string, number>();
  const lines = ["email,subscribed_at"];
  for (const member of data.members) {
    if (member.email_disabled === true || member.email_disabled === 1) countReason(keptOut, ghostEmailDisabled);
    else if (member.subscribed === false || member.subscribed === 0 || (byNewsletter && !subscribed.has(text(member.id))))
      countReason(keptOut, ghostUnsubscribed);
    else lines.push(`${csvField(text(member.email))},${exportDate(member.created_at)?.toISOString() ?? ""}`);
  }
  return { csv: `${lines.join("\n")}\n`, keptOut };
}

/**
 * The items of a Ghost 4 or 5 JSON export: each post (its `html`, slug, state and dates, tags in
 * order, the feature image and the excerpt; the old address is Ghost's default `/{slug}/`), each
 * page and revision listed as skipped; and its members, when it holds them.
 */
export function readGhostExport(bytes: Uint8Array): { items: SourceItem[]; subscribers: ExportSubscribers | null } {
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
  // …and the newsletter's own subject line, which the post keeps as its email subject.
  const subjectOf = new Map((data.posts_meta ?? []).map((meta) => [text(meta.post_id), text(meta.email_subject).replace(/\s+/g, " ").trim()]));
  const tagsOf = new Map<string, { name: string; order: number }[]>();
  for (const link of data.posts_tags ?? []) {
    const name = tagNames.get(text(link.tag_id));
    if (!name) continue;
    const list = tagsOf.get(text(link.post_id)) ?? [];
    list.push({ name, order: Number(link.sort_order ?? 0) });
    tagsOf.set(text(link.post_id), list);
  }
  const items: SourceItem[] = [];
  for (const post of data.posts ?? []) {
    const id = text(post.id) || text(post.uuid);
    const title = text(post.title).trim() || "Untitled";
    if (post.type === "page" || post.page === true || post.page === 1) {
      items.push({ kind: "page", sourceId: id, title, skipped: "A page: only posts are imported." });
      continue;
    }
    if (!id) {
      items.push({ kind: "post", sourceId: "", title, skipped: "It has no id in the export, so a second import could not know it." });
      continue;
    }
    const html = text(post.html);
    const known = states[text(post.status)];
    const hiddenFrom = membersOnly[text(post.visibility)];
    const state = hiddenFrom ? "draft" : (known ?? "draft");
    const slug = text(post.slug) || null;
    const warnings: string[] = [];
    if (!html.trim()) warnings.push("The export holds no HTML for this post (Ghost writes it only for posts saved by Ghost 4 or later).");
    if (!known) warnings.push(`Unknown status "${text(post.status)}": imported as a draft.`);
    if (hiddenFrom) warnings.push(membersOnlyWarning(hiddenFrom));
    items.push({
      sourceId: id,
      title,
      html,
      slug,
      state,
      publishedAt: exportDate(post.published_at),
      createdAt: exportDate(post.created_at),
      excerpt: text(post.custom_excerpt).trim() || null,
      tags: (tagsOf.get(text(post.id)) ?? []).sort((a, b) => a.order - b.order).map((tag) => tag.name),
      // Ghost's internal tags (`#name`) steer its themes, not readers: they are not brought.
      postTags: (tagsOf.get(text(post.id)) ?? [])
        .sort((a, b) => a.order - b.order)
        .map((tag) => tag.name)
        .filter((name) => !name.startsWith("#")),
      featureImage: text(post.feature_image) || null,
      featureImageAlt: altOf.get(text(post.id)) || text(post.feature_image_alt).trim() || null,
      emailSubject: subjectOf.get(text(post.id)) || null,
      oldUrl: slug && known === "published" ? `/${slug}/` : null,
      warnings,
    });
  }
  for (const revision of data.post_revisions ?? [])
    items.push({
      kind: "revision",
      sourceId: text(revision.id),
      title: text(revision.title).trim() || "Untitled",
      skipped: "A revision: the post itself is imported.",
    });
  return { items, subscribers: ghostMembers(data) };
}
