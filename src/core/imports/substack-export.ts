import { parse as parseCsv } from "csv-parse/sync";
import { parse } from "node-html-parser";
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
import { readZipEntries, utf8 } from "./zip-entries.ts";

export const notSubstackMessage = "This file is not a Substack export (a zip with posts.csv and a posts folder).";

/** Substack's own parts of a post page: subscribe and share buttons, widgets, the paywall marker. */
const chrome = [
  ".subscription-widget-wrap",
  ".subscription-widget-wrap-editor",
  ".subscribe-widget",
  ".button-wrapper",
  ".captioned-button-wrap",
  ".share-dialog",
  ".image-link-expand",
  ".paywall",
  ".paywall-jump",
  ".digest-post-embed",
  "[data-component-name]:not(.captioned-image-container)",
  "form",
  "button",
  "svg",
  "source",
].join(", ");

/** A post's body without Substack's chrome. */
export function withoutSubstackChrome(html: string): string {
  const root = parse(html);
  for (const element of root.querySelectorAll(chrome)) element.remove();
  return root.toString();
}

type Row = Record<string, string | undefined>;

/**
 * The posts of a Substack export: `posts.csv` says each post's id (`<number>.<slug>`), date,
 * whether it was published, its title and subtitle; `posts/<id>.html` holds its body. Podcasts and
 * threads without a body are listed as warnings; posts for paid or free subscribers only come in as
 * drafts. The email list comes back as CSV with `email` and `subscribed_at` for the subscriber
 * import (an address Substack marks disabled is counted as kept out).
 */
export async function readSubstackExport(
  bytes: Uint8Array,
): Promise<{ site: string | null; items: SourceItem[]; subscribers: ExportSubscribers | null }> {
  const entries = await readZipEntries(bytes, (name) => /\.(csv|html)$/i.test(name), notSubstackMessage);
  const postsCsv = [...entries.keys()].find((name) => /(^|\/)posts\.csv$/i.test(name));
  if (!postsCsv) throw new ValidationError(notSubstackMessage);
  const prefix = postsCsv.slice(0, -"posts.csv".length);
  const rows = parseCsv<Row>(utf8(entries.get(postsCsv)), { columns: true, skip_empty_lines: true, bom: true, relax_column_count: true });
  const items: SourceItem[] = [];
  for (const row of rows) {
    const id = row.post_id?.trim();
    if (!id) {
      items.push({ kind: "post", sourceId: "", title: row.title?.trim() || "Untitled", skipped: "It has no post_id in posts.csv." });
      continue;
    }
    const slug = id.includes(".") ? id.slice(id.indexOf(".") + 1) : null;
    const body = entries.get(`${prefix}posts/${id}.html`);
    const hiddenFrom = audiences[row.audience?.trim() ?? ""];
    const wasPublished = row.is_published?.trim().toLowerCase() === "true";
    const published = wasPublished && !hiddenFrom;
    const subtitle = row.subtitle?.trim();
    const warnings: string[] = [];
    if (hiddenFrom) warnings.push(membersOnlyWarning(hiddenFrom));
    if (!body) warnings.push(`No HTML file for this post (posts/${id}.html): not imported.`);
    if (row.type && row.type !== "newsletter") warnings.push(`A Substack ${row.type}: only its text is imported.`);
    const post: ImportedPost = {
      sourceId: id,
      title: row.title?.trim() || "Untitled",
      html: body ? withoutSubstackChrome(utf8(body)) : "",
      slug,
      state: published ? "published" : "draft",
      publishedAt: published ? exportDate(row.post_date) : null,
      createdAt: exportDate(row.post_date),
      excerpt: subtitle || null,
      tags: [],
      featureImage: null,
      oldUrl: slug && wasPublished ? `/p/${slug}` : null,
      warnings,
    };
    items.push(post);
  }
  const list = [...entries.keys()].find((name) => /(^|\/)email_list[^/]*\.csv$/i.test(name));
  return { site: null, items, subscribers: list ? substackSubscribers(utf8(entries.get(list))) : null };
}

/** Substack's `audience` values that are not everyone, as the warning names them. */
const audiences: Record<string, string> = { only_paid: "paid subscribers", founding: "founding members", only_free: "subscribers" };

export const substackDisabled = "Email disabled on Substack (unsubscribed, bounced or marked as spam)";

function substackSubscribers(text: string): ExportSubscribers {
  const rows = parseCsv<Row>(text, { columns: true, skip_empty_lines: true, bom: true, relax_column_count: true });
  const lines = ["email,subscribed_at"];
  const keptOut = new Map<string, number>();
  for (const row of rows) {
    // A row without an address still goes on: the subscriber import names it as invalid by its line.
    if (row.email_disabled?.trim().toLowerCase() === "true") {
      countReason(keptOut, substackDisabled);
      continue;
    }
    const date = exportDate(row.created_at);
    lines.push(`${csvField(row.email ?? "")},${date ? date.toISOString() : ""}`);
  }
  return { csv: `${lines.join("\n")}\n`, keptOut };
}
