import sharp, { type Metadata } from "sharp";
import { PayloadTooLargeError, UnsupportedTypeError } from "../errors.ts";
import { imageTypeMessage } from "../messages.ts";
import { randomUUID } from "node:crypto";
import { imagePixelsMessage, maxImageEdge, maxImagePixels, sizedImageName, type ImageSize } from "./image-sizes.ts";
import { checkImage, type CheckedFile } from "./upload-rules.ts";

/** An image ready to store: no metadata left in, upright, at most `maxImageEdge` on its long edge, and its size known. */
export interface CleanImage extends CheckedFile {
  size: ImageSize;
}

const sharpFormats = { jpg: "jpeg", png: "png", webp: "webp", gif: "gif", avif: "avif" } as const;

/** Upright size of one frame (`pageHeight` for an animation) as sharp reports it. */
const sizeOf = (metadata: Metadata): ImageSize => ({
  width: metadata.autoOrient.width,
  height: metadata.pageHeight ?? metadata.autoOrient.height,
});

/**
 * The header only (no decoding, so no pixel limit yet): an image over `maxImagePixels` is refused
 * here with its own figures, however large, instead of failing later as "not an image".
 */
async function readHeader(bytes: Uint8Array): Promise<Metadata> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { animated: true, failOn: "error", limitInputPixels: false }).metadata();
  } catch {
    // file-type recognised the signature but the image behind it does not decode.
    throw new UnsupportedTypeError(imageTypeMessage);
  }
  const frames = metadata.pages ?? 1;
  const frame = { width: metadata.width, height: metadata.pageHeight ?? metadata.height };
  if (frame.width * frame.height * frames > maxImagePixels) throw new PayloadTooLargeError(imagePixelsMessage(frame, frames));
  return metadata;
}

/**
 * The dashboard re-encodes every photo before upload, which drops its metadata and shrinks it to
 * `maxImageEdge`; a client that doesn't (a script, an old tab) may still send a phone's EXIF with
 * its GPS position, or a full-size image. Such an image is turned upright, shrunk and re-encoded
 * without its metadata; a clean one that fits is stored byte for byte (no second loss). The colour
 * profile is kept: it is how the colours look, not who or where.
 */
export async function cleanImage(file: CheckedFile): Promise<CleanImage> {
  const format = sharpFormats[file.extension as keyof typeof sharpFormats];
  const metadata = await readHeader(file.bytes);
  const size = sizeOf(metadata);
  const tagged = Boolean(metadata.exif ?? metadata.xmp ?? metadata.iptc ?? metadata.tifftagPhotoshop) || (metadata.comments?.length ?? 0) > 0;
  const turned = (metadata.orientation ?? 1) !== 1;
  const oversized = Math.max(size.width, size.height) > maxImageEdge;
  if (!tagged && !turned && !oversized) return { ...file, size };
  // `animated` keeps every frame of a GIF or WebP; the pixel limit stands again in case the header lied.
  const bytes = await sharp(file.bytes, { animated: true, failOn: "error", limitInputPixels: maxImagePixels })
    .autoOrient()
    .resize({ width: maxImageEdge, height: maxImageEdge, fit: "inside", withoutEnlargement: true })
    .keepIccProfile()
    .toFormat(format, { quality: 90 })
    .toBuffer();
  const stored = await sharp(bytes, { animated: true }).metadata();
  return { ...file, bytes: new Uint8Array(bytes), size: sizeOf(stored) };
}

/** An uploaded image checked by its bytes (415/413 otherwise) and cleaned, ready to store. */
export async function checkAndCleanImage(file: File): Promise<CleanImage> {
  return cleanImage(await checkImage(file));
}

/** A fresh storage key for a clean image, its size in the name (see `sizedImageName`). */
export function newImageKey(image: CleanImage): string {
  return `images/${sizedImageName(randomUUID(), image.size, image.extension)}`;
}
