/**
 * Upload limits the dashboard checks before sending and the server enforces on arrival. Kept apart
 * from `upload-rules.ts` (which sniffs bytes with file-type) so the browser bundle stays small.
 */

/** Netlify's synchronous functions carry about 4.5 MB of binary; we cap uploads at 4 MB. */
export const maxFileBytes = 4 * 1024 * 1024;

/** One request carries a file, its thumbnail (or a post's image and text) and the other fields. */
export const maxFormBytes = maxFileBytes + 256 * 1024;

/** SPEC §5: the resource files a visitor may be offered. */
export const resourceExtensions = ["pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "zip"] as const;
