/**
 * Upload limits the dashboard checks before sending and the server enforces on arrival. Kept apart
 * from `upload-rules.ts` (which sniffs bytes with file-type) so the browser bundle stays small.
 */

/** Netlify's synchronous functions carry about 4.5 MB of binary; we cap uploads at 4 MB. */
export const maxFileBytes = 4 * 1024 * 1024;

export const fileTooLargeMessage = "The file is too large (the limit is 4 MB)";

/** One request carries a file, its thumbnail (or a post's image and text) and the other fields. */
export const maxFormBytes = maxFileBytes + 256 * 1024;

export const formTooLargeMessage = "The upload is too large (the limit is 4 MB)";

/** SPEC §5: the resource files a visitor may be offered. */
export const resourceExtensions = ["pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "zip"] as const;

export const imageTypeMessage = "Only PNG, JPEG, WebP, GIF or AVIF images are allowed";

export const resourceTypeMessage =
  "Only PDF, Word, Excel, PowerPoint or ZIP files are allowed (pdf, doc, docx, xls, xlsx, ppt, pptx, zip)";
