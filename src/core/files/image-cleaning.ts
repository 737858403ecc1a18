import sharp, { type Metadata } from "sharp";
import { UnsupportedTypeError } from "../errors.ts";
import { imageTypeMessage } from "../messages.ts";
import { randomUUID } from "node:crypto";
import { sizedImageName, type ImageSize } from "./image-sizes.ts";
import { checkImage, type CheckedFile } from "./upload-rules.ts";

/** An image ready to store: no metadata left in, upright, and its size known. */
export interface CleanImage extends CheckedFile {
  size: ImageSize;
}

const sharpFormats = { jpg: "jpeg", png: "png", webp: "webp", gif: "gif", avif: "avif" } as const;

/**
 * The dashboard re-encodes every photo before upload, which drops its metadata; a client that
 * doesn't (a script, an old tab) may still send a phone's EXIF with its GPS position. Such an image
 * is turned upright and re-encoded without it; a clean one is stored byte for byte (no second loss).
 * The colour profile is kept: it is how the colours look, not who or where.
 */
export async function cleanImage(file: CheckedFile): Promise<CleanImage> {
  const format = sharpFormats[file.extension as keyof typeof sharpFormats];
  // `animated` keeps every frame of a GIF or WebP; the height is then one frame's.
  const image = () => sharp(file.bytes, { animated: true, failOn: "error" });
  let metadata: Metadata;
  try {
    metadata = await image().metadata();
  } catch {
    // file-type recognised the signature but the image behind it does not decode.
    throw new UnsupportedTypeError(imageTypeMessage);
  }
  const size = { width: metadata.autoOrient.width, height: metadata.pageHeight ?? metadata.autoOrient.height };
  const tagged = Boolean(metadata.exif ?? metadata.xmp ?? metadata.iptc ?? metadata.tifftagPhotoshop) || (metadata.comments?.length ?? 0) > 0;
  const turned = (metadata.orientation ?? 1) !== 1;
  if (!tagged && !turned) return { ...file, size };
  const bytes = await image().autoOrient().keepIccProfile().toFormat(format, { quality: 90 }).toBuffer();
  return { ...file, bytes: new Uint8Array(bytes), size };
}

/** An uploaded image checked by its bytes (415/413 otherwise) and cleaned, ready to store. */
export async function checkAndCleanImage(file: File): Promise<CleanImage> {
  return cleanImage(await checkImage(file));
}

/** A fresh storage key for a clean image, its size in the name (see `sizedImageName`). */
export function newImageKey(image: CleanImage): string {
  return `images/${sizedImageName(randomUUID(), image.size, image.extension)}`;
}
