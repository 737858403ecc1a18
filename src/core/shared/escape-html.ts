const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for HTML content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

/** Text made safe for element content only (quotes kept as typed: the editor's paragraphs). */
export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (char) => entities[char] ?? char);
}
