/**
 * Gmail shows only the first 102 KB of an email's HTML, then a "[Message clipped] View entire
 * message" link: the rest — the footer with the unsubscribe link among it — is hidden. Counted in
 * bytes (KB of 1,024) of the HTML as rendered, in UTF-8. Why 102 × 1,024: docs/decisions/0029-email-content.md.
 */
export const gmailClipBytes = 102 * 1024;

/** The size of an email's HTML in bytes, as Gmail counts it. */
export function htmlBytes(html: string): number {
  return new TextEncoder().encode(html).byteLength;
}

/** The warning the newsletter preview shows for HTML of this size; null when Gmail shows it whole. */
export function gmailClipWarning(bytes: number): string | null {
  if (bytes <= gmailClipBytes) return null;
  const kilobytes = Math.ceil(bytes / 1024);
  return `Gmail clips messages over 102 KB, and this email is ${String(kilobytes)} KB: Gmail readers will see its start and a "View entire message" link, with the unsubscribe link hidden in the rest. Shorten the post, or leave part of it for the site.`;
}
