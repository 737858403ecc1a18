/** SPEC §9: the blog list falls back to this many characters of the post's text. */
export const excerptFallbackLength = 150;

// Block-level tags separate words; inline tags (strong, em, a) sit inside them.
const blockTag = /<\/?(?:p|h[1-6]|li|ul|ol|blockquote|pre|code|br|hr|div|figure|figcaption|img)\b[^>]*>/gi;
const anyTag = /<[^>]*>/g;

const namedEntities: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
};

/** Decodes the entities sanitized HTML commonly holds, in one pass (so `&amp;lt;` stays `&lt;`). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return namedEntities[body.toLowerCase()] ?? entity;
  });
}

/** The readable text of an HTML fragment: tags removed, entities decoded, whitespace collapsed. */
export function plainText(html: string): string {
  return decodeEntities(html.replace(blockTag, " ").replace(anyTag, "")).replace(/\s+/g, " ").trim();
}

/** The first `max` characters of the text of `html`, with "…" when it was cut. */
export function excerptFromHtml(html: string, max = excerptFallbackLength): string {
  const text = plainText(html);
  if (text.length <= max) return text;
  return `${text.slice(0, max).trimEnd()}…`;
}

/** What a post card shows under the title: the excerpt, or the start of the content. */
export function postSummary(post: { excerpt: string | null; content: string }): string {
  const excerpt = post.excerpt?.trim();
  return excerpt ? excerpt : excerptFromHtml(post.content);
}
