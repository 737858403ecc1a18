import type { ImportWarning } from "./import.schema.ts";

/** One post as an export describes it, before it is checked, cleaned and stored. */
export interface ImportedPost {
  /** The export's own id (Ghost's id, WordPress's post id, Substack's post id, Medium's file): re-imports match on it. */
  sourceId: string;
  title: string;
  /** The body as the export holds it (already turned into HTML: wpautop, chrome removed). */
  html: string;
  /** The slug the post had; kept when free. */
  slug: string | null;
  state: "published" | "draft" | "scheduled";
  /** When it was (or will be) published. */
  publishedAt: Date | null;
  createdAt: Date | null;
  excerpt: string | null;
  /** Tag or category names, the first that matches one of ours becomes the category. */
  tags: string[];
  /** The free-form tags the source gave the post (Ghost's tags, WordPress's `post_tag`), in order: they become its tags here. */
  postTags?: string[];
  featureImage: string | null;
  /** The feature image's alt text in the source; none: stored as not described yet (null), never refused. */
  featureImageAlt?: string | null;
  /** The newsletter subject the source gave the post (Ghost's posts_meta); none: the title. */
  emailSubject?: string | null;
  /** Its address on the old site (absolute, or a path): answered 301 to the new page. */
  oldUrl: string | null;
  /** What the reader could not carry over (a shortcode, a missing body). */
  warnings: string[];
}

/** An item of the export that is not a post to import, and why (a page, an attachment, a revision…). */
export interface SkippedSourceItem {
  kind: string;
  sourceId: string;
  title: string;
  skipped: string;
}

/** What a reader hands over for each item of the export, in the export's order. */
export type SourceItem = ImportedPost | SkippedSourceItem;

export const isSkippedItem = (item: SourceItem): item is SkippedSourceItem => "skipped" in item;

/** An email list read from an export: the addresses to offer the subscriber import, and those left out and why. */
export interface ExportSubscribers {
  /** `email,subscribed_at` rows for the subscriber import. */
  csv: string;
  /** Addresses the source itself marks as not wanting mail (unsubscribed, disabled), by reason. */
  keptOut: Map<string, number>;
}

/** Adds one to a reason's count. */
export function countReason(counts: Map<string, number>, reason: string): void {
  counts.set(reason, (counts.get(reason) ?? 0) + 1);
}

/** A CSV field, quoted. */
export const csvField = (value: string): string => `"${value.replace(/"/g, '""')}"`;

/** Paid or members-only on the old site: imported as a draft so it is not published to everyone. */
export const membersOnlyWarning = (who: string): string =>
  `Only for ${who} on the old site: imported as a draft, so it is not published to everyone.`;

/** A warning about a post, named by its title. */
export const warningFor = (post: Pick<ImportedPost, "title">, message: string): ImportWarning => ({ post: post.title, message });

/** A date from an export, or null when it is missing or not one. */
export function exportDate(value: unknown): Date | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  if (typeof value === "string" && (value.trim() === "" || value.startsWith("0000-00-00"))) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
