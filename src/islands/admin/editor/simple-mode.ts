/**
 * The 'Simple Editor' (a plain textarea) and the rich editor share one value, the post's HTML.
 * Text → HTML wraps each non-blank line in a paragraph (SPEC §2); HTML → text puts each block on
 * its own line, so switching back and forth keeps the words.
 */
import { escapeText as escapeHtml } from "../../../core/shared/escape-html.ts";
import { decodeEntities } from "../../../lib/post-excerpt.ts";

/** 'line one\nline two' → '<p>line one</p><p>line two</p>'; blank lines are dropped. */
export function linesToParagraphs(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join("");
}

/** The text of `html`, one line per paragraph, heading, list item, quote line or <br>. */
export function paragraphsToLines(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|h[1-6]|li|blockquote|pre|div)>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .split("\n")
    .map(decodeEntities)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * Whether the Simple Editor would lose something of `html` once the owner types there: anything
 * but plain paragraphs and line breaks (headings, lists, links, images, bold…).
 */
export function simpleModeLoses(html: string): boolean {
  return /<(?!\/?p>|br\s*\/?>)/i.test(html);
}
