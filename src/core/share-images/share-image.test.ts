import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { folderShareImageCache, readDisplayFont } from "../../adapters/share-image-cache.ts";
import {
  drawShareImage,
  ensureShareImage,
  ensureShareImages,
  shareImageKey,
  shareImageSize,
  type ShareImageDeps,
  type ShareImageInput,
} from "./share-image.ts";

const post: ShareImageInput = {
  title: "We raised less than we hoped and spent more than we planned",
  category: "Cash Flow",
  cover: null,
  focus: null,
  siteName: "No Filter",
};

/** A 1600×900 photo-like cover: blue with a yellow disc at its top right, where the focal point is. */
const cover = () =>
  sharp({ create: { width: 1600, height: 900, channels: 3, background: "#3366aa" } })
    .composite([{ input: Buffer.from('<svg width="1600" height="900"><circle cx="1300" cy="200" r="150" fill="#ffff00"/></svg>'), left: 0, top: 0 }])
    .jpeg()
    .toBuffer();

describe("share images", () => {
  let dir: string;
  let cache: ReturnType<typeof folderShareImageCache>;
  /** The image of `input` as the build gets it: ensured in the cache, then read from its file. */
  const image = async (input: ShareImageInput) => {
    const ensured = await ensureShareImage(deps, input);
    return { ...ensured, bytes: await readFile(cache.file(ensured.key)) };
  };
  let deps: ShareImageDeps & { draw: ReturnType<typeof vi.fn<NonNullable<ShareImageDeps["draw"]>>> };
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "nf-share-"));
    const coverBytes = await cover();
    cache = folderShareImageCache(dir);
    deps = {
      cache,
      displayFont: readDisplayFont,
      coverBytes: (url) => Promise.resolve(url === "/api/files/images/cover_1600x900.jpg" ? new Uint8Array(coverBytes) : null),
      draw: vi.fn(drawShareImage),
    };
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("draws a 1200×630 PNG, with or without a cover", async () => {
    const plain = await sharp((await image(post)).bytes).metadata();
    expect([plain.format, plain.width, plain.height]).toEqual(["png", shareImageSize.width, shareImageSize.height]);
    const withCover = { ...post, cover: "/api/files/images/cover_1600x900.jpg", focus: { x: 81, y: 22 } };
    const drawn = (await image(withCover)).bytes;
    const meta = await sharp(drawn).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1200, 630]);
    // The crop centres on the focal point: the yellow disc is in the cover panel (the right 440 pixels).
    const { data, info } = await sharp(drawn).extract({ left: 760, top: 0, width: 440, height: 630 }).raw().toBuffer({ resolveWithObject: true });
    let yellow = 0;
    for (let i = 0; i < data.length; i += info.channels) if (data[i]! > 200 && data[i + 1]! > 200 && data[i + 2]! < 80) yellow++;
    expect(yellow).toBeGreaterThan(10_000);
  });

  it("does not redraw an unchanged post: the second build reuses the cached file", async () => {
    const first = await image(post);
    expect(first.drawn).toBe(true);
    const file = path.join(dir, "share-images", `${shareImageKey(post)}.png`);
    const written = await stat(file);
    const second = await image({ ...post });
    expect(second.drawn).toBe(false);
    expect(deps.draw).toHaveBeenCalledTimes(1);
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    expect((await stat(file)).mtimeMs).toBe(written.mtimeMs);
    expect(await readdir(path.join(dir, "share-images"))).toEqual([`${shareImageKey(post)}.png`]);
  });

  it("redraws when the title, the category, the cover or its focal point change", async () => {
    await image(post);
    const changes: ShareImageInput[] = [
      { ...post, title: "We raised more than we hoped" },
      { ...post, category: "Mindset" },
      { ...post, cover: "/api/files/images/cover_1600x900.jpg" },
      { ...post, cover: "/api/files/images/cover_1600x900.jpg", focus: { x: 10, y: 90 } },
      { ...post, siteName: "Another Site" },
    ];
    for (const changed of changes) expect((await image(changed)).drawn).toBe(true);
    expect(deps.draw).toHaveBeenCalledTimes(1 + changes.length);
    expect(new Set([post, ...changes].map(shareImageKey)).size).toBe(1 + changes.length);
    expect(await readdir(path.join(dir, "share-images"))).toHaveLength(1 + changes.length);
  });

  it("ensures many at a time, drawing only the ones the cache lacks, and answers in order", async () => {
    await image(post);
    const inputs = Array.from({ length: 6 }, (_, index) => (index === 3 ? post : { ...post, title: `Lesson ${String(index)}` }));
    const ensured = await ensureShareImages(deps, inputs, 3);
    expect(ensured.map((result) => result.key)).toEqual(inputs.map(shareImageKey));
    expect(ensured.map((result) => result.drawn)).toEqual([true, true, true, false, true, true]);
    expect(deps.draw).toHaveBeenCalledTimes(6);
  });

  it("draws the card without the cover when the stored cover is gone", async () => {
    const { bytes, drawn } = await image({ ...post, cover: "/api/files/images/missing_1600x900.jpg" });
    expect(drawn).toBe(true);
    expect(deps.draw.mock.calls[0]?.[1].cover).toBeNull();
    expect((await sharp(bytes).metadata()).width).toBe(1200);
  });
});
