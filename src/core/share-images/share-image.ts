import { createHash } from "node:crypto";
import satori from "satori";
import sharp from "sharp";
import type { ImageFocus } from "../shared/image-focus.schema.ts";

/**
 * A post's share image (issue 43 point 4): a 1200×630 PNG in the brand, drawn once per distinct
 * input and kept in the build's cache. docs/decisions/0078-share-images.md
 */
export const shareImageSize = { width: 1200, height: 630 } as const;

/**
 * Bump when the drawing changes: every image's key changes with it, so the next build redraws them
 * all instead of serving the old look from the cache.
 */
export const shareImageTemplateVersion = 1;

/** Everything the picture depends on; its hash is the cache key. */
export interface ShareImageInput {
  title: string;
  category: string | null;
  /** The cover's stored URL (its name carries a unique id), or null. */
  cover: string | null;
  focus: ImageFocus | null;
  siteName: string;
}

/** What the drawing needs besides the input: the display face, and the cover's bytes when there is one. */
export interface ShareImageAssets {
  /** Archivo Black as TTF, OTF or WOFF (satori reads no WOFF2). */
  displayFont: Uint8Array;
  cover: Uint8Array | null;
}

/** Where drawn images are kept between builds, by key. */
export interface ShareImageCache {
  has(key: string): Promise<boolean>;
  write(key: string, bytes: Uint8Array): Promise<void>;
}

export interface ShareImageDeps {
  cache: ShareImageCache;
  /** The display face, read on the first drawing only. */
  displayFont: () => Promise<Uint8Array>;
  /** A cover's bytes from the file store, or null when it is gone (then the card is drawn without it). */
  coverBytes: (url: string) => Promise<Uint8Array | null>;
  /** The drawing; a test counts its calls. */
  draw?: (input: ShareImageInput, assets: ShareImageAssets) => Promise<Uint8Array>;
}

/** The cache key: a SHA-256 over the template version and every input, in a fixed order. */
export function shareImageKey(input: ShareImageInput): string {
  const parts = [
    shareImageTemplateVersion,
    input.title,
    input.category,
    input.cover,
    input.focus ? [input.focus.x, input.focus.y] : null,
    input.siteName,
  ];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/** Makes sure the cache holds the image of this exact input: drawn now only when no earlier build drew it. */
export async function ensureShareImage(deps: ShareImageDeps, input: ShareImageInput): Promise<{ key: string; drawn: boolean }> {
  const key = shareImageKey(input);
  if (await deps.cache.has(key)) return { key, drawn: false };
  const [displayFont, cover] = await Promise.all([deps.displayFont(), input.cover ? deps.coverBytes(input.cover) : null]);
  const bytes = await (deps.draw ?? drawShareImage)(input, { displayFont, cover });
  await deps.cache.write(key, bytes);
  return { key, drawn: true };
}

/**
 * `ensureShareImage` for many posts, `concurrency` at a time: satori lays out on the main thread while
 * sharp renders the others on its own threads.
 */
export async function ensureShareImages(
  deps: ShareImageDeps,
  inputs: readonly ShareImageInput[],
  concurrency = 4,
): Promise<{ key: string; drawn: boolean }[]> {
  const results = new Array<{ key: string; drawn: boolean }>(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const index = next++;
      results[index] = await ensureShareImage(deps, inputs[index] as ShareImageInput);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, worker));
  return results;
}

// The brand (BRAND.md): ink, paper, signal red; the category colours of src/lib/category-style.ts.
const ink = "#0A0A0A";
const paper = "#FAFAF7";
const signal = "#E11D2E";
const categoryColours: Record<string, { background: string; text: string }> = {
  entrepreneurship: { background: "#B91C1C", text: paper },
  mindset: { background: "#B91C1C", text: paper },
  "cash flow": { background: "#F59E0B", text: ink },
  networking: { background: "#7C3AED", text: paper },
};
const otherCategory = { background: "#6B7280", text: paper };

/** The width the cover takes on the right when there is one. */
const coverWidth = 440;
const frame = 14;

type Node = { type: string; props: { style?: Record<string, unknown>; children?: Node | string | (Node | string)[] } };
const box = (style: Record<string, unknown>, children?: Node["props"]["children"]): Node => ({ type: "div", props: { style, children } });

/** Title size by length, so a long title still fits in four lines. */
function titleSize(title: string): number {
  if (title.length <= 32) return 76;
  if (title.length <= 60) return 62;
  if (title.length <= 100) return 50;
  return 42;
}

function layout(input: ShareImageInput, withCover: boolean): Node {
  const colours = categoryColours[(input.category ?? "").trim().toLowerCase()] ?? otherCategory;
  const textWidth = shareImageSize.width - (withCover ? coverWidth : 0);
  const mark = box(
    {
      width: 64,
      height: 64,
      background: signal,
      border: `4px solid ${ink}`,
      display: "flex",
      alignItems: "center",
      justifyContent: "center",
      color: paper,
      fontSize: 28,
    },
    "NF",
  );
  const header = box({ display: "flex", alignItems: "center", gap: 18 }, [
    mark,
    box({ fontSize: 34, color: ink, textTransform: "uppercase", letterSpacing: -1 }, input.siteName),
  ]);
  const badge = input.category
    ? box(
        {
          alignSelf: "flex-start",
          background: colours.background,
          color: colours.text,
          border: `3px solid ${ink}`,
          boxShadow: `5px 5px 0 ${ink}`,
          padding: "8px 16px",
          fontSize: 24,
          textTransform: "uppercase",
          marginBottom: 26,
        },
        input.category,
      )
    : null;
  const inner = textWidth - 2 * frame - 2 * 52;
  const title = box({ width: inner, fontSize: titleSize(input.title), lineHeight: 1.08, color: ink, letterSpacing: -1.5, lineClamp: 4 }, input.title);
  const footer = box({ display: "flex", alignItems: "center", gap: 16 }, [
    box({ width: 56, height: 10, background: signal }),
    box({ fontSize: 22, color: ink, textTransform: "uppercase" }, "Wins. Fails. Funding."),
  ]);
  // The frame: ink around the text, or around text and cover together (the cover's side is drawn with it).
  return box(
    {
      width: textWidth - (withCover ? frame : 2 * frame),
      height: shareImageSize.height - 2 * frame,
      display: "flex",
      background: ink,
      padding: withCover ? `${String(frame)}px 0 ${String(frame)}px ${String(frame)}px` : `${String(frame)}px`,
      fontFamily: "Archivo Black",
    },
    box(
      {
        // Satori sizes boxes without their padding (content-box).
        width: textWidth - (withCover ? frame : 2 * frame) - 2 * 52,
        height: shareImageSize.height - 2 * frame - 84,
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        padding: "40px 52px 44px",
        background: paper,
      },
      [header, box({ display: "flex", flexDirection: "column", width: inner }, badge ? [badge, title] : [title]), footer],
    ),
  );
}

/**
 * The cover cut to `coverWidth`×630 around its focal point (the middle without one), as far as the
 * crop allows, with the frame's ink border on its outer sides.
 */
async function coverPanel(cover: Uint8Array, focus: ImageFocus | null): Promise<Buffer | null> {
  const height = shareImageSize.height;
  const image = sharp(cover, { failOn: "none" }).rotate();
  const meta = await image.metadata().catch(() => null);
  if (!meta?.width || !meta.height) return null;
  const width = meta.autoOrient.width;
  const tall = meta.autoOrient.height;
  const scale = Math.max(coverWidth / width, height / tall);
  const scaledWidth = Math.max(coverWidth, Math.round(width * scale));
  const scaledHeight = Math.max(height, Math.round(tall * scale));
  const fx = (focus?.x ?? 50) / 100;
  const fy = (focus?.y ?? 50) / 100;
  const left = Math.min(Math.max(Math.round(fx * scaledWidth - coverWidth / 2), 0), scaledWidth - coverWidth);
  const top = Math.min(Math.max(Math.round(fy * scaledHeight - height / 2), 0), scaledHeight - height);
  return image
    .resize(scaledWidth, scaledHeight, { fit: "fill" })
    .extract({ left, top, width: coverWidth, height })
    .flatten({ background: paper })
    .toBuffer();
}

/** Draws the card: satori lays the text out as SVG, sharp renders it and puts the cover beside it. */
export async function drawShareImage(input: ShareImageInput, assets: ShareImageAssets): Promise<Uint8Array> {
  const panel = assets.cover ? await coverPanel(assets.cover, input.focus) : null;
  const textWidth = shareImageSize.width - (panel ? coverWidth : 0);
  const svg = await satori(layout(input, panel !== null) as Parameters<typeof satori>[0], {
    width: textWidth,
    height: shareImageSize.height,
    fonts: [
      {
        name: "Archivo Black",
        data: Buffer.from(assets.displayFont.buffer, assets.displayFont.byteOffset, assets.displayFont.byteLength),
        weight: 400,
        style: "normal",
      },
    ],
  });
  const text = sharp(Buffer.from(svg));
  // zlib's default level: a palette or level 9 makes the file 30–60 % smaller but the drawing 2–5 times slower (decision 0078).
  if (!panel) return text.png({ compressionLevel: 6 }).toBuffer();
  // The cover's own frame: ink on the top, right and bottom, a thick ink rule between text and photo.
  const rule = 8;
  const framedCover = await sharp(panel)
    .extract({ left: 0, top: frame, width: coverWidth - frame - rule, height: shareImageSize.height - 2 * frame })
    .extend({ top: frame, bottom: frame, left: rule, right: frame, background: ink })
    .toBuffer();
  return sharp({ create: { ...shareImageSize, channels: 3, background: paper } })
    .composite([
      { input: await text.raw().toBuffer(), raw: { width: textWidth, height: shareImageSize.height, channels: 4 }, left: 0, top: 0 },
      { input: framedCover, left: textWidth, top: 0 },
    ])
    .png({ compressionLevel: 6 })
    .toBuffer();
}
