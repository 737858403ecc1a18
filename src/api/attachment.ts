/**
 * Every file the API hands over to be saved (a resource's file, the subscriber CSV, one subscriber's
 * data, a backup) answers with the same headers, built here once.
 */
export interface Attachment {
  /** The name the browser saves it under; any characters (a resource keeps its owner's file name). */
  fileName: string;
  contentType: string;
  /** Its length in bytes when known before the body is sent (a stream may not know it). */
  bytes?: number | null;
}

/**
 * `attachment` with the name as it is when plain ASCII will do, and otherwise an ASCII stand-in
 * (`filename`) beside the exact UTF-8 name (`filename*`), as RFC 6266 (appendix D) and RFC 8187 advise.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  if (ascii === fileName) return `attachment; filename="${fileName}"`;
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The headers of an attachment: its type (never sniffed), its name, its length when known; kept by
 * no cache (each is one person's or the owner's), and its address (a signed link) never sent on as
 * a referrer. `extra` adds what one kind needs (a backup's part count).
 */
export function attachmentHeaders({ fileName, contentType, bytes = null }: Attachment, extra: Record<string, string> = {}): Record<string, string> {
  return {
    "content-type": contentType,
    "content-disposition": contentDisposition(fileName),
    ...(bytes !== null && { "content-length": String(bytes) }),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    ...extra,
  };
}

/** An attachment answer: `body` with `attachmentHeaders`. */
export function attachment(body: BodyInit, file: Attachment, extra?: Record<string, string>): Response {
  return new Response(body, { headers: attachmentHeaders(file, extra) });
}
