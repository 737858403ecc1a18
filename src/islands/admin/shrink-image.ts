import { maxImageEdge } from "../../core/files/image-sizes.ts";
import { maxFileBytes } from "../../core/files/upload-limits.ts";
import { fileTooLargeMessage } from "../../core/messages.ts";

/**
 * A chosen image as the dashboard sends it: at most `maxImageEdge` on its long edge, turned the way
 * the camera's EXIF orientation says, and re-encoded, which leaves every bit of metadata (GPS
 * position, camera, time) behind. A 12 MP phone photo comes out well under the 4 MB a Netlify
 * Function takes. The browser's own decoder and canvas do it: no library, nothing to download.
 * JPEG stays JPEG; other kinds become WebP, which keeps transparency.
 * An animated GIF small enough to send is sent as it is: re-encoding would keep one frame.
 */
export async function shrinkImage(file: File): Promise<File> {
  if (file.type === "image/gif" && file.size <= maxFileBytes) return file;
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  try {
    const scale = Math.min(1, maxImageEdge / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const type = file.type === "image/jpeg" ? "image/jpeg" : "image/webp";
    const blob = await encode(bitmap, width, height, type);
    const extension = blob.type === "image/jpeg" ? "jpg" : (blob.type.split("/")[1] ?? "img");
    return new File([blob], `${file.name.replace(/\.[^.]*$/, "") || "image"}.${extension}`, { type: blob.type, lastModified: file.lastModified });
  } finally {
    bitmap.close();
  }
}

async function encode(bitmap: ImageBitmap, width: number, height: number, type: string): Promise<Blob> {
  const quality = type === "image/jpeg" ? 0.85 : 0.9;
  if (typeof OffscreenCanvas !== "undefined") {
    const canvas = new OffscreenCanvas(width, height);
    draw(canvas.getContext("2d"), bitmap, width, height);
    return canvas.convertToBlob({ type, quality });
  }
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  draw(canvas.getContext("2d"), bitmap, width, height);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The browser could not encode the image"))), type, quality);
  });
}

function draw(context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null, bitmap: ImageBitmap, width: number, height: number) {
  if (!context) throw new Error("The browser has no 2D canvas");
  context.imageSmoothingQuality = "high";
  context.drawImage(bitmap, 0, 0, width, height);
}

/** "2.7 MB", "840 KB": how the dashboard names a file's size. */
export function formatBytes(bytes: number): string {
  const megabytes = bytes / (1024 * 1024);
  return megabytes >= 1 ? `${megabytes.toFixed(1)} MB` : `${String(Math.max(1, Math.round(bytes / 1024)))} KB`;
}

/** A chosen image made ready to send, with what the owner is told about it. */
export interface PreparedImage {
  file: File;
  /** "Resized 2.7 MB → 840 KB", once the image was re-encoded. */
  note: string | undefined;
  /** Why it cannot be sent (still over the upload limit). */
  error: string | undefined;
}

/**
 * Shrinks a chosen image for upload. An image this browser cannot decode is sent as chosen: the
 * server then says whether it takes it.
 */
export async function prepareImage(file: File): Promise<PreparedImage> {
  const shrunk = await shrinkImage(file).catch(() => file);
  const note = shrunk === file ? undefined : `Resized ${formatBytes(file.size)} → ${formatBytes(shrunk.size)}, location and camera data removed.`;
  return { file: shrunk, note, error: shrunk.size > maxFileBytes ? fileTooLargeMessage : undefined };
}
