import { fileTypeFromBuffer } from "file-type";
import { PayloadTooLargeError, UnsupportedTypeError } from "../errors.ts";
import { fileTooLargeMessage, imageTypeMessage, resourceTypeMessage } from "../messages.ts";
import { maxFileBytes, type resourceExtensions } from "./upload-limits.ts";

/** An upload whose type has been checked from its bytes. */
export interface CheckedFile {
  bytes: Uint8Array;
  /** The type the bytes are, never the one the client claimed. */
  contentType: string;
  /** The extension that type goes with (for storage keys). */
  extension: string;
  /** The client's file name, reduced to a safe base name. */
  fileName: string;
}

const imageTypes: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
};

/**
 * Resource files: the extension must be allowed AND the bytes must be that kind of file. Office's
 * old formats (doc, xls, ppt) are OLE compound files (`cfb`); the new ones are zip packages that
 * file-type recognises as docx/xlsx/pptx.
 */
const resourceTypes: Record<(typeof resourceExtensions)[number], { signatures: string[]; contentType: string }> = {
  pdf: { signatures: ["pdf"], contentType: "application/pdf" },
  doc: { signatures: ["cfb"], contentType: "application/msword" },
  xls: { signatures: ["cfb"], contentType: "application/vnd.ms-excel" },
  ppt: { signatures: ["cfb"], contentType: "application/vnd.ms-powerpoint" },
  docx: { signatures: ["docx"], contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  xlsx: { signatures: ["xlsx"], contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
  pptx: { signatures: ["pptx"], contentType: "application/vnd.openxmlformats-officedocument.presentationml.presentation" },
  zip: { signatures: ["zip"], contentType: "application/zip" },
};

async function readChecked(file: File): Promise<{ bytes: Uint8Array; detected: string | undefined }> {
  if (file.size > maxFileBytes) throw new PayloadTooLargeError(fileTooLargeMessage);
  const bytes = new Uint8Array(await file.arrayBuffer());
  return { bytes, detected: (await fileTypeFromBuffer(bytes))?.ext };
}

/** A safe base name: no folders, no control or quote characters, at most 150 characters. */
export function safeFileName(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .replace(/[\u0000-\u001f\u007f"<>|:*?]/g, "")
    .trim()
    .slice(-150);
  return cleaned || fallback;
}

/** PNG, JPEG, WebP, GIF or AVIF by their bytes; anything else (SVG, HTML, …) is refused with 415. */
export async function checkImage(file: File): Promise<CheckedFile> {
  const { bytes, detected } = await readChecked(file);
  const contentType = detected ? imageTypes[detected] : undefined;
  if (!detected || !contentType) {
    throw new UnsupportedTypeError(imageTypeMessage);
  }
  return { bytes, contentType, extension: detected, fileName: safeFileName(file.name, `image.${detected}`) };
}

/** pdf, doc, docx, xls, xlsx, ppt, pptx or zip — by extension and by signature; else 415. */
export async function checkResourceFile(file: File): Promise<CheckedFile> {
  const extension = file.name.split(".").pop()?.toLowerCase() ?? "";
  const rule = (resourceTypes as Record<string, (typeof resourceTypes)["pdf"] | undefined>)[extension];
  const refused = () => new UnsupportedTypeError(resourceTypeMessage);
  if (!rule) throw refused();
  const { bytes, detected } = await readChecked(file);
  if (!detected || !rule.signatures.includes(detected)) throw refused();
  return { bytes, contentType: rule.contentType, extension, fileName: safeFileName(file.name, `download.${extension}`) };
}

/**
 * The type a stored file's bytes are, judged as its upload was: under `images/` one of the image
 * types, under `downloads/` the resource type of its extension (and its bytes that kind of file).
 * Null for anything else: an "image" whose bytes are HTML, say. For files that come back from
 * outside (a restored backup), whatever type they claim.
 */
export async function storedFileType(key: string, bytes: Uint8Array): Promise<string | null> {
  const detected = (await fileTypeFromBuffer(bytes))?.ext;
  if (!detected) return null;
  if (key.startsWith("images/")) return imageTypes[detected] ?? null;
  if (!key.startsWith("downloads/")) return null;
  const rule = (resourceTypes as Record<string, (typeof resourceTypes)["pdf"] | undefined>)[key.split(".").pop()?.toLowerCase() ?? ""];
  return rule?.signatures.includes(detected) ? rule.contentType : null;
}
