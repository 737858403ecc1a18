// @ts-check
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";
import { adminAppBundle } from "./netlify/admin-app-bundle.ts";
import { localDatabase } from "./netlify/local/astro-local-database.ts";
import { keptRenderer } from "./netlify/local/kept-renderer.ts";
import { shareImages } from "./netlify/share-images.ts";
import { sitemap } from "./netlify/sitemap.ts";

// The Netlify adapter always makes a server build (an SSR catch-all function on `/*`), which a
// fully static site doesn't need: Netlify serves dist/ and 404.html itself. So the adapter runs
// only under `astro dev`, where its Vite plugin brings functions, Blobs and the local database.
const isDev = process.argv.includes("dev");
// Imported only then: loading the adapter takes time that every site build (and so every publish
// under `npm start`) would pay for nothing (docs/decisions/0005-netlify-adapter-only-in-dev.md).
// The local server builds into a fresh folder each time and swaps it in (see netlify/local).
const outDir = process.env.ASTRO_OUT_DIR ?? "./dist";
const netlify = isDev ? (await import("@astrojs/netlify")).default : undefined;

export default defineConfig({
  output: "static",
  outDir,
  // …with its cache (content store, optimized images) in that server's state folder, apart from any other's.
  ...(process.env.ASTRO_CACHE_DIR && { cacheDir: process.env.ASTRO_CACHE_DIR }),
  ...(process.env.SITE_URL && { site: process.env.SITE_URL }),
  trailingSlash: "ignore",
  // Four pages render at once: a page waits on writing its file, and rendering the next one meanwhile
  // makes the build faster with the same bytes out (docs/decisions/0010-build-concurrency.md). Data is
  // read once per build (src/lib/build-data.ts), so this adds no database load.
  build: { format: "directory", concurrency: 4 },
  ...(netlify && {
    adapter: netlify({
      // Edge functions would download Deno (no network here). Images: the Image CDN's emulation,
      // as under `npm start` (docs/decisions/0016-responsive-images.md).
      devFeatures: { edgeFunctions: false, images: true, environmentVariables: false },
      imageCDN: false,
    }),
  }),
  integrations: [
    react(),
    // Public pages only: never the dashboard (its path must not be revealed) or form answer pages.
    // Each post with its last change as <lastmod>, as its page states it (decision 0099).
    sitemap({
      listed: (page) => {
        const path = new URL(page).pathname.replace(/\/$/, "");
        const adminPath = process.env.ADMIN_PATH;
        return (
          ![
            "/subscribed",
            "/thanks",
            "/subscribe-failed",
            "/subscribe-failed/try-later",
            "/preferences-failed",
            "/preferences-failed/try-later",
            "/download-failed",
            "/download-failed/try-later",
            "/comment-failed",
            "/comment-failed/try-later",
            "/account/continue",
            "/blog/post-not-found",
            "/404",
            "/share-images.json",
          ].includes(path) &&
          !path.startsWith("/preview-template-") &&
          !path.startsWith("/message-template") &&
          (!adminPath || (path !== `/${adminPath}` && !path.startsWith(`/${adminPath}/`)))
        );
      },
    }),
    adminAppBundle(),
    localDatabase(),
    // The share images into /share/, from the build's cache (decision 0078).
    shareImages(),
    // Under `npm start`, the build process keeps the full build's renderer for incremental passes (decision 0091).
    keptRenderer(),
  ],
  vite: {
    plugins: [tailwindcss()],
    // Our Content-Security-Policy allows no inline script, so Astro must never inline a small one
    // (e.g. the admin page's loader); other assets keep Vite's default.
    build: { assetsInlineLimit: (file) => (file.endsWith(".js") ? false : undefined) },
  },
});
