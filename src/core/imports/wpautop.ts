/**
 * Paragraphs as WordPress's `wpautop` makes them from a classic-editor post: a blank line ends a
 * paragraph, a single line break becomes `<br />`, and block elements are never wrapped. Written
 * here from the function's documented behaviour, not copied: WordPress and `@wordpress/autop` are
 * GPL (docs/decisions/0036-importing-other-blogs.md). Block-editor posts never pass through it.
 */
const blocks =
  "(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|math|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)";

const openOrCloseBlock = `</?${blocks}[^>]*>`;

export function wpautop(input: string): string {
  if (input.trim() === "") return "";
  // <pre> keeps its line breaks: set aside, put back at the end.
  const kept: string[] = [];
  let text = `${input}\n`.replace(/<pre[\s>][\s\S]*?<\/pre>/gi, (pre) => {
    kept.push(pre);
    return `<pre wp-pre-tag-${String(kept.length - 1)}></pre>`;
  });
  text = text.replace(/\r\n?/g, "\n");
  text = text.replace(/<br\s*\/?>\s*<br\s*\/?>/gi, "\n\n");
  // Blank lines around every block element, so each stands in its own "paragraph".
  text = text.replace(new RegExp(`(<${blocks}[\\s/>])`, "gi"), "\n\n$1");
  text = text.replace(new RegExp(`(</${blocks}>)`, "gi"), "$1\n\n");
  text = text.replace(/\n\s*\n+/g, "\n\n");
  const paragraphs = text.split(/\n\s*\n/).filter((paragraph) => paragraph.trim() !== "");
  text = paragraphs.map((paragraph) => `<p>${paragraph.replace(/^\n+|\n+$/g, "")}</p>\n`).join("");
  text = text.replace(/<p>\s*<\/p>/g, "");
  text = text.replace(/<p>([^<]+)<\/(div|address|form)>/gi, "<p>$1</p></$2>");
  // A block element alone in its paragraph is not wrapped.
  text = text.replace(new RegExp(`<p>\\s*(${openOrCloseBlock})\\s*</p>`, "gi"), "$1");
  text = text.replace(/<p>(<li.+?)<\/p>/gi, "$1");
  text = text.replace(/<p><blockquote([^>]*)>/gi, "<blockquote$1><p>");
  text = text.replace(/<\/blockquote><\/p>/gi, "</p></blockquote>");
  text = text.replace(new RegExp(`<p>\\s*(${openOrCloseBlock})`, "gi"), "$1");
  text = text.replace(new RegExp(`(${openOrCloseBlock})\\s*</p>`, "gi"), "$1");
  // A single line break inside a paragraph is a <br />, but not right after or before a block tag.
  text = text.replace(/(<br\s*\/?>)?\s*\n(?!$)/g, "<br />\n");
  text = text.replace(new RegExp(`(${openOrCloseBlock})\\s*<br />`, "gi"), "$1");
  text = text.replace(/<br \/>(\s*<\/?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)/gi, "$1");
  text = text.replace(/\n<\/p>$/g, "</p>");
  text = text.replace(/<pre wp-pre-tag-(\d+)><\/pre>/g, (_, index: string) => kept[Number(index)] ?? "");
  return text.trim();
}
