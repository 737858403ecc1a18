import { parse } from "node-html-parser";
import { ValidationError } from "../errors.ts";
import { exportDate, type SourceItem } from "./imported-post.ts";
import { readZipEntries, utf8 } from "./zip-entries.ts";

export const notMediumMessage = "This file is not a Medium export (a zip with a posts folder of HTML files).";

/**
 * The posts of a Medium export: each `posts/*.html` file is one post (`draft_…` files are drafts),
 * with its title (`h1.p-name`), subtitle (`section.p-summary`, kept as the excerpt), body
 * (`section.e-content`, where Medium repeats the title and subtitle: removed), date
 * (`time.dt-published`) and canonical link (its old address, and its id for re-imports).
 */
export async function readMediumExport(bytes: Uint8Array): Promise<SourceItem[]> {
  const entries = await readZipEntries(bytes, (name) => /(^|\/)posts\/[^/]+\.html$/i.test(name), notMediumMessage);
  if (entries.size === 0) throw new ValidationError(notMediumMessage);
  const posts: SourceItem[] = [];
  for (const [name, content] of [...entries].sort(([a], [b]) => a.localeCompare(b))) {
    const root = parse(utf8(content));
    const fileName = name.split("/").pop() ?? name;
    const body = root.querySelector("section.e-content, section[data-field=body]");
    const title = root.querySelector("h1.p-name, title")?.textContent.trim() || "Untitled";
    const subtitle = root.querySelector("section.p-summary, section[data-field=subtitle]")?.textContent.trim() || null;
    const canonical = root.querySelector("a.p-canonical")?.getAttribute("href") ?? null;
    const published = root.querySelector("time.dt-published")?.getAttribute("datetime") ?? null;
    const isDraft = fileName.startsWith("draft_") || !published;
    if (body) for (const repeat of body.querySelectorAll(".graf--title, .graf--subtitle, .section-divider")) repeat.remove();
    posts.push({
      sourceId: canonical ?? fileName,
      title,
      html: body?.innerHTML ?? "",
      slug: null,
      state: isDraft ? "draft" : "published",
      publishedAt: isDraft ? null : exportDate(published),
      createdAt: exportDate(published),
      excerpt: subtitle,
      tags: [],
      featureImage: null,
      oldUrl: isDraft ? null : canonical,
      warnings: body ? [] : ["No body in this file: not imported."],
    });
  }
  return posts;
}
