import { parse as parseCsv } from "csv-parse/sync";
import { parse } from "node-html-parser";
import { ValidationError } from "../errors.ts";
import { exportDate, type ImportedPost } from "./imported-post.ts";
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
 * threads without a body are listed as warnings. The email list comes back as CSV with `email` and
 * `subscribed_at` for the subscriber import (an address Substack marks disabled is left out).
 */
export async function readSubstackExport(bytes: Uint8Array): Promise<{ site: string | null; posts: ImportedPost[]; subscribersCsv: string | null }> {
  const entries = await readZipEntries(bytes, (name) => /\.(csv|html)$/i.test(name), notSubstackMessage);
  const postsCsv = [...entries.keys()].find((name) => /(^|\/)posts\.csv$/i.test(name));
  if (!postsCsv) throw new ValidationError(notSubstackMessage);
  const prefix = postsCsv.slice(0, -"posts.csv".length);
  const rows = parseCsv<Row>(utf8(entries.get(postsCsv)), { columns: true, skip_empty_lines: true, bom: true, relax_column_count: true });
  const posts: ImportedPost[] = [];
  for (const row of rows) {
    const id = row.post_id?.trim();
    if (!id) continue;
    const slug = id.includes(".") ? id.slice(id.indexOf(".") + 1) : null;
    const body = entries.get(`${prefix}posts/${id}.html`);
    const published = row.is_published?.trim().toLowerCase() === "true";
    const subtitle = row.subtitle?.trim();
    const warnings: string[] = [];
    if (!body) warnings.push(`No HTML file for this post (posts/${id}.html): not imported.`);
    if (row.type && row.type !== "newsletter") warnings.push(`A Substack ${row.type}: only its text is imported.`);
    posts.push({
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
      oldUrl: slug && published ? `/p/${slug}` : null,
      warnings,
    });
  }
  const list = [...entries.keys()].find((name) => /(^|\/)email_list[^/]*\.csv$/i.test(name));
  return { site: null, posts, subscribersCsv: list ? subscribersCsv(utf8(entries.get(list))) : null };
}

function subscribersCsv(text: string): string {
  const rows = parseCsv<Row>(text, { columns: true, skip_empty_lines: true, bom: true, relax_column_count: true });
  const lines = ["email,subscribed_at"];
  for (const row of rows) {
    if (!row.email || row.email_disabled?.trim().toLowerCase() === "true") continue;
    const date = exportDate(row.created_at);
    lines.push(`"${row.email.replace(/"/g, '""')}",${date ? date.toISOString() : ""}`);
  }
  return `${lines.join("\n")}\n`;
}
