import {
  fileTooLargeMessage,
  imageTypeMessage,
  maxFileBytes,
  resourceExtensions,
  resourceTypeMessage,
} from "../../core/files/upload-limits.ts";

/**
 * What the dashboard can tell about a chosen file before sending it: too big, or plainly the
 * wrong kind. The server still sniffs the bytes; this only saves the owner a wasted upload.
 */
export function checkChosenImage(file: File | undefined): string | undefined {
  if (!file) return undefined;
  if (!file.type.startsWith("image/")) return imageTypeMessage;
  return file.size > maxFileBytes ? fileTooLargeMessage : undefined;
}

export function checkChosenResource(file: File | undefined): string | undefined {
  if (!file) return undefined;
  const extension = file.name.split(".").pop()?.toLowerCase() ?? "";
  if (!(resourceExtensions as readonly string[]).includes(extension)) return resourceTypeMessage;
  return file.size > maxFileBytes ? fileTooLargeMessage : undefined;
}

/** The file input's accept list (SPEC §5). */
export const resourceAccept = resourceExtensions.map((extension) => `.${extension}`).join(",");
