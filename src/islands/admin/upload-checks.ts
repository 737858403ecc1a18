import { maxFileBytes, maxFormBytes, resourceExtensions } from "../../core/files/upload-limits.ts";
import { maxChosenImageBytes } from "../../core/files/image-sizes.ts";
import { chosenImageTooLargeMessage, fileTooLargeMessage, imageTypeMessage, resourceTypeMessage } from "../../core/messages.ts";

/**
 * What the dashboard can tell about a chosen file before sending it: too big, or plainly the
 * wrong kind. The server still sniffs the bytes; this only saves the owner a wasted upload.
 * An image may be as large as a phone's photo: it is scaled down before it is sent.
 */
export function checkChosenImage(file: File | undefined): string | undefined {
  if (!file) return undefined;
  if (!file.type.startsWith("image/")) return imageTypeMessage;
  return file.size > maxChosenImageBytes ? chosenImageTooLargeMessage : undefined;
}

export function checkChosenResource(file: File | undefined): string | undefined {
  if (!file) return undefined;
  const extension = file.name.split(".").pop()?.toLowerCase() ?? "";
  if (!(resourceExtensions as readonly string[]).includes(extension)) return resourceTypeMessage;
  return file.size > maxFileBytes ? fileTooLargeMessage : undefined;
}

/** A multipart part's boundary and headers, generously: the count must not fall short of the server's. */
const partOverheadBytes = 256;

/**
 * The server refuses a whole request over `maxFormBytes`, so files that pass one by one can still
 * be refused together (a 3 MB file with a 1.5 MB thumbnail): counted here as the request would
 * carry them, before minutes of upload are spent on an answer of 413.
 */
export function checkFormSize(form: FormData, message: string): string | undefined {
  const encoder = new TextEncoder();
  // The closing boundary, then each part; browsers send a text field's line breaks as CRLF.
  let bytes = partOverheadBytes;
  for (const [name, value] of form) {
    bytes += partOverheadBytes + encoder.encode(name).byteLength;
    bytes +=
      typeof value === "string" ? encoder.encode(value.replace(/\r?\n|\r/g, "\r\n")).byteLength : value.size + encoder.encode(value.name).byteLength;
  }
  return bytes > maxFormBytes ? message : undefined;
}

/** The file input's accept list (SPEC §5). */
export const resourceAccept = resourceExtensions.map((extension) => `.${extension}`).join(",");
