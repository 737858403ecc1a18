/**
 * Draws the demo covers and thumbnails (netlify/local/demo-content/files) from their HTML in
 * `cover-art.ts`, with the site's Chromium: `node tests/support/draw-demo-art.ts`. Run by hand
 * after changing the art; the PNGs are committed.
 */
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { chromium } from "@playwright/test";
import { demoArt, demoArtHtml } from "../../netlify/local/demo-content/cover-art.ts";
import { chromiumPath } from "./chromium-path.ts";

const require = createRequire(import.meta.url);
/** Archivo Black as a data URL: the page is set from a string, with no server to fetch from. */
export async function archivoBlackDataUrl(): Promise<string> {
  const font = await readFile(require.resolve("@fontsource/archivo-black/files/archivo-black-latin-400-normal.woff2"));
  return `data:font/woff2;base64,${font.toString("base64")}`;
}

async function main(): Promise<void> {
  const fontUrl = await archivoBlackDataUrl();
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] });
  try {
    for (const art of demoArt) {
      const page = await browser.newPage({ viewport: { width: art.width, height: art.height } });
      await page.setContent(demoArtHtml(art, fontUrl));
      await page.evaluate(() => document.fonts.ready);
      const target = new URL(`../../netlify/local/demo-content/files/${art.file}`, import.meta.url);
      await writeFile(target, await page.screenshot({ type: "png" }));
      await page.close();
      console.log(`drew ${art.file}`);
    }
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ""}`) await main();
