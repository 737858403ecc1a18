import { access, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { ShareImageCache } from "../core/share-images/share-image.ts";

/**
 * The share images' cache: one PNG a key in `<cacheDir>/share-images/`, the build's cache folder
 * (Astro's `cacheDir`: node_modules/.astro by default, which Netlify keeps between builds; a local
 * server's own state folder under `npm start`). docs/decisions/0078-share-images.md
 */
export function folderShareImageCache(cacheDir: string): ShareImageCache & { file: (key: string) => string } {
  const folder = path.resolve(cacheDir, "share-images");
  const file = (key: string) => path.join(folder, `${key}.png`);
  return {
    file,
    has: (key) =>
      access(file(key)).then(
        () => true,
        () => false,
      ),
    async write(key, bytes) {
      await mkdir(folder, { recursive: true });
      // Written beside and renamed: a build stopped halfway never leaves half a PNG under a good key.
      const partial = `${file(key)}.${String(process.pid)}.partial`;
      await writeFile(partial, bytes);
      await rename(partial, file(key));
    },
  };
}

/** Archivo Black as WOFF from `@fontsource/archivo-black` (satori reads no WOFF2). */
export function readDisplayFont(): Promise<Uint8Array> {
  const require = createRequire(import.meta.url);
  return readFile(require.resolve("@fontsource/archivo-black/files/archivo-black-latin-400-normal.woff"));
}
