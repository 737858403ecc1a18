// @ts-check
// The anchor for issue 39 point 5: a bare Astro build of the same posts (one page a post, the list
// in pages of 12), no integrations, no data layer: the posts come from a JSON file the bench wrote
// (`BARE_POSTS_JSON`). tests/bench/full-build-scale.ts builds it beside the site.
import { defineConfig } from "astro/config";

export default defineConfig({
  output: "static",
  outDir: process.env.ASTRO_OUT_DIR ?? "./dist",
  ...(process.env.ASTRO_CACHE_DIR && { cacheDir: process.env.ASTRO_CACHE_DIR }),
  build: { format: "directory", concurrency: 4 },
});
