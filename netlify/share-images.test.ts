import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { placeShareImages, shareImagesManifest } from "./share-images.ts";

describe("placing the share images", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), "nf-share-place-"));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("links each cached PNG into /share/ under its name and deletes the list", async () => {
    const cache = path.join(root, "cache");
    const outDir = path.join(root, "dist");
    await mkdir(cache);
    await mkdir(outDir);
    await writeFile(path.join(cache, "abc.png"), "png bytes");
    await writeFile(path.join(outDir, shareImagesManifest), JSON.stringify({ "a-post-0123456789abcdef": path.join(cache, "abc.png") }));
    expect(await placeShareImages(outDir)).toBe(1);
    expect(await readdir(outDir)).toEqual(["share"]);
    const placed = await stat(path.join(outDir, "share", "a-post-0123456789abcdef.png"));
    // The same file, not a copy: a warm build writes no image bytes.
    expect(placed.ino).toBe((await stat(path.join(cache, "abc.png"))).ino);
  });

  it("does nothing for a build that wrote no list", async () => {
    expect(await placeShareImages(root)).toBe(0);
  });
});
