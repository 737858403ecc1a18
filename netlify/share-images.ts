import type { AstroIntegration } from "astro";
import { copyFile, link, mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The list the build wrote (src/pages/share-images.json.ts): image name → its file in the build's cache. */
export const shareImagesManifest = "share-images.json";

/**
 * The build's last step for the share images: each cached PNG linked into `<outDir>/share/` (a hard
 * link costs no copy; a copy when the cache is on another disk), then the list deleted.
 * docs/decisions/0078-share-images.md
 */
export async function placeShareImages(outDir: string): Promise<number> {
  const manifest = path.join(outDir, shareImagesManifest);
  const text = await readFile(manifest, "utf8").catch(() => undefined);
  if (text === undefined) return 0;
  const images = JSON.parse(text) as Record<string, string>;
  const folder = path.join(outDir, "share");
  await mkdir(folder, { recursive: true });
  await Promise.all(
    Object.entries(images).map(async ([name, file]) => {
      const target = path.join(folder, `${name}.png`);
      await link(file, target).catch(() => copyFile(file, target));
    }),
  );
  await rm(manifest);
  return Object.keys(images).length;
}

export function shareImages(): AstroIntegration {
  return {
    name: "no-filter:share-images",
    hooks: {
      "astro:build:done": async ({ dir }) => {
        await placeShareImages(fileURLToPath(dir));
      },
    },
  };
}
