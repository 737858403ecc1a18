import { escapeHtml } from "../shared/escape-html.ts";
import { wpautop } from "./wpautop.ts";

/** Shortcodes turned into plain HTML; any other is left as text and listed as a warning. */
const handledShortcodes = new Set(["caption", "wp_caption", "embed", "audio", "video"]);
/** Shortcodes removed with a warning: what they show is built by a plugin from data the export lacks. */
const droppedShortcodes = new Set(["gallery", "playlist"]);

const shortcodePattern = /\[(\/?)([a-zA-Z][\w-]*)((?:\s[^\]]*)?)\](?:([\s\S]*?)\[\/\2\])?/g;

function attribute(attributes: string, name: string): string | null {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|(\\S+))`, "i").exec(attributes);
  return match ? (match[1] ?? match[2] ?? match[3] ?? null) : null;
}

/**
 * A post's `content:encoded` as the public page showed it: block-editor comments removed (those
 * posts already hold their paragraphs), classic posts given paragraphs as `wpautop` does, and the
 * common shortcodes turned into HTML. Returns the HTML and what was not carried over.
 */
export function wordpressContent(raw: string): { html: string; warnings: string[] } {
  const warnings = new Set<string>();
  const isBlockEditor = /<!--\s*wp:/.test(raw);
  let html = raw.replace(/<!--\s*\/?wp:[\s\S]*?-->/g, "");
  html = html.replace(shortcodePattern, (whole, closing: string, name: string, attributes: string, inner: string | undefined) => {
    const tag = name.toLowerCase();
    if (closing) return whole;
    if (tag === "caption" || tag === "wp_caption") {
      // [caption]<img …> The caption[/caption]: the image, then its caption as a paragraph.
      const body = inner ?? "";
      const image = /<a\b[^>]*>\s*<img\b[^>]*>\s*<\/a>|<img\b[^>]*>/i.exec(body)?.[0] ?? "";
      const caption = body.replace(image, "").trim() || attribute(attributes, "caption") || "";
      return `\n\n${image}${caption ? `\n\n<p><em>${caption}</em></p>` : ""}\n\n`;
    }
    if (tag === "embed" || tag === "audio" || tag === "video") {
      const url = (inner ?? "").trim() || attribute(attributes, "src") || attribute(attributes, "mp3") || attribute(attributes, "mp4") || "";
      if (!/^https?:\/\//i.test(url)) {
        warnings.add(`Shortcode [${tag}] without an address was removed.`);
        return "";
      }
      return `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    }
    if (droppedShortcodes.has(tag)) {
      warnings.add(`Shortcode [${tag}] is not supported and was removed.`);
      return "";
    }
    if (!handledShortcodes.has(tag)) warnings.add(`Shortcode [${tag}] is not handled: it is left as text.`);
    return whole;
  });
  return { html: isBlockEditor ? html.trim() : wpautop(html), warnings: [...warnings] };
}
