import { escapeHtml } from "../shared/escape-html.ts";

/**
 * A comment's plain text as HTML (issue 44 point 3): everything escaped (no HTML from a reader,
 * ever), each web address made a link with `rel="nofollow ugc noopener"`, blank lines as
 * paragraphs and single line breaks as `<br>`.
 */

/** A web address as a reader types it: `https://…`, `http://…` or `www.…`, up to a space or a bracket. */
const urlPattern = /\b(?:https?:\/\/|www\.)[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence after an address rather than belonging to it. */
const trailing = /[.,;:!?)\]}]+$/;

function addresses(text: string): { start: number; end: number; url: string }[] {
  const found: { start: number; end: number; url: string }[] = [];
  for (const match of text.matchAll(urlPattern)) {
    const url = match[0].replace(trailing, "");
    if (url.length < 5) continue;
    found.push({ start: match.index, end: match.index + url.length, url });
  }
  return found;
}

/** How many links a comment holds (the hold rule's count). */
export function countLinks(text: string): number {
  return addresses(text).length;
}

function linkify(line: string): string {
  let html = "";
  let at = 0;
  for (const { start, end, url } of addresses(line)) {
    html += escapeHtml(line.slice(at, start));
    const href = /^www\./i.test(url) ? `https://${url}` : url;
    html += `<a href="${escapeHtml(href)}" rel="nofollow ugc noopener">${escapeHtml(url)}</a>`;
    at = end;
  }
  return html + escapeHtml(line.slice(at));
}

export function renderCommentHtml(body: string): string {
  return body
    .replace(/\r\n?/g, "\n")
    .trim()
    .split(/\n[ \t]*\n\s*/)
    .map((paragraph) => `<p>${paragraph.split("\n").map(linkify).join("<br>")}</p>`)
    .join("");
}
