/**
 * Image sizes shared by the dashboard (which scales a photo down before upload), the server (which
 * names each stored image after its size) and the public pages (which ask the Image CDN for the
 * widths a screen needs). No dependencies: the browser bundle imports it.
 * Why the Image CDN and these numbers: docs/decisions/0016-responsive-images.md.
 */

/** The longest edge an uploaded image keeps: sharper than any screen the site lays it out for. */
export const maxImageEdge = 2560;

/**
 * The most pixels an uploaded image may have (all frames of an animation together), checked from
 * its header before it is decoded: a 31 KB PNG can say 16,000 × 16,000 and take 1.5 GiB to open.
 * Why 50 MP: docs/decisions/0024-bounded-waits-and-answers.md.
 */
export const maxImagePixels = 50_000_000;

/** Why an image over `maxImagePixels` was refused, in its own figures. */
export function imagePixelsMessage({ width, height }: ImageSize, frames = 1): string {
  const count = (value: number) => value.toLocaleString("en-US");
  const megapixels = Math.round((width * height * frames) / 1_000_000);
  const inFrames = frames > 1 ? ` in ${count(frames)} frames` : "";
  return `This image is ${count(width)} × ${count(height)} pixels${inFrames} (${count(megapixels)} MP); the limit is ${count(maxImagePixels / 1_000_000)} megapixels.`;
}

/** What the owner may choose in the dashboard: a photo straight from a phone. */
export const maxChosenImageBytes = 25 * 1024 * 1024;

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * A stored image's name carries its size (`<id>_<width>x<height>.<ext>`), so every page and every
 * post body that shows it can set `width`/`height` without reading the file.
 */
export function sizedImageName(id: string, size: ImageSize, extension: string): string {
  return `${id}_${String(size.width)}x${String(size.height)}.${extension}`;
}

const sizeInName = /_(\d{1,5})x(\d{1,5})\.[A-Za-z0-9]+$/;

/** The size a stored image's URL or key names; undefined for images stored before sizes were. */
export function imageSizeOf(urlOrKey: string): ImageSize | undefined {
  const match = sizeInName.exec(urlOrKey.split("?")[0] ?? "");
  if (!match) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** Formats the Image CDN answers in (`fm`). */
export type ImageFormat = "webp" | "jpg" | "png";

interface Transform {
  width: number;
  /** With a height the image is cropped to fill width × height (`fit=cover`). */
  height?: number | undefined;
  format: ImageFormat;
}

/** A Netlify Image CDN URL for a site image (served by the emulation under `npm start`). */
export function imageCdnUrl(src: string, { width, height, format }: Transform): string {
  const params = new URLSearchParams({ url: src, w: String(width) });
  if (height) {
    params.set("h", String(height));
    params.set("fit", "cover");
  }
  params.set("fm", format);
  return `/.netlify/images?${params.toString()}`;
}

/** The widths a srcset offers: a small phone at 1× up to a wide column at 2×. */
export const srcsetWidths = [320, 480, 640, 800, 1200, 1600] as const;

export interface ResponsiveSources {
  /**
   * A JPEG at the layout's own width, for the rare browser without WebP (one size keeps the page
   * light: each srcset entry is a long URL, on every card).
   */
  src: string;
  /** WebP at every width, for `<source type="image/webp">`. */
  srcset: string;
  width: number | undefined;
  height: number | undefined;
}

/**
 * Sources for an image shown `layoutWidth` CSS pixels wide at most. With an `aspect` the image is
 * cropped to it (a cover); without, it keeps its own shape and its stored size gives the height.
 * Widths past the original's are left out: the CDN would only upscale them. `cropInPage`: the
 * files keep the image's own shape and the page crops it to `aspect` (`object-fit: cover`), so a
 * focal point can place the crop: the image CDN crops only around the middle or an edge.
 */
export function responsiveSources(src: string, layoutWidth: number, aspect?: ImageSize, cropInPage = false): ResponsiveSources {
  const original = imageSizeOf(src);
  const shape = aspect ?? original;
  const heightAt = (width: number) => (shape ? Math.round((width * shape.height) / shape.width) : undefined);
  const widths: number[] = srcsetWidths.filter((width) => !original || width <= original.width);
  if (widths.length === 0) widths.push(original?.width ?? srcsetWidths[0]);
  const crop = (width: number) => (aspect && !cropInPage ? heightAt(width) : undefined);
  const srcset = widths.map((width) => `${imageCdnUrl(src, { width, height: crop(width), format: "webp" })} ${String(width)}w`).join(", ");
  const fallbackWidth = Math.min(layoutWidth, original?.width ?? layoutWidth);
  return {
    src: imageCdnUrl(src, { width: fallbackWidth, height: crop(fallbackWidth), format: "jpg" }),
    srcset,
    width: shape ? fallbackWidth : undefined,
    height: heightAt(fallbackWidth),
  };
}

/** The social card for a stored image: 1200×630 JPEG, the size Open Graph and X show. */
export function socialCardUrl(src: string): string {
  return imageCdnUrl(src, { width: 1200, height: 630, format: "jpg" });
}
