import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageLastModified, withLastModified } from "./sitemap-lastmod.ts";

let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), "sitemap-lastmod-"));
  await mkdir(path.join(outDir, "blog", "a-post"), { recursive: true });
  await writeFile(
    path.join(outDir, "blog", "a-post", "index.html"),
    '<html><head><meta property="article:modified_time" content="2026-04-05T06:07:08.000Z" /></head></html>',
  );
  // A head past the first 16 KB the sitemap reads of each page.
  await mkdir(path.join(outDir, "blog", "long-head"), { recursive: true });
  await writeFile(
    path.join(outDir, "blog", "long-head", "index.html"),
    `<html><head><meta name="description" content="${"x".repeat(20_000)}" /><meta property="article:modified_time" content="2026-04-06T00:00:00.000Z" /></head><body>${"y".repeat(40_000)}</body></html>`,
  );
  await mkdir(path.join(outDir, "downloads"), { recursive: true });
  await writeFile(path.join(outDir, "downloads", "index.html"), "<html><head></head></html>");
});
afterAll(() => rm(outDir, { recursive: true, force: true }));

describe("sitemap lastmod", () => {
  it("takes a post page's last change from the page the build wrote", async () => {
    expect(await pageLastModified(outDir, "https://example.com/blog/a-post/")).toBe("2026-04-05T06:07:08.000Z");
    expect(await withLastModified(() => outDir)({ url: "https://example.com/blog/a-post/" })).toEqual({
      url: "https://example.com/blog/a-post/",
      lastmod: "2026-04-05T06:07:08.000Z",
    });
    expect(await pageLastModified(outDir, "https://example.com/blog/long-head/")).toBe("2026-04-06T00:00:00.000Z");
  });

  it("gives none to a page that states no change, or that is not there", async () => {
    expect(await withLastModified(() => outDir)({ url: "https://example.com/downloads/" })).toEqual({ url: "https://example.com/downloads/" });
    expect(await pageLastModified(outDir, "https://example.com/blog/gone/")).toBeUndefined();
    expect(await pageLastModified(outDir, "https://example.com/%2e%2e/%2e%2e/etc/")).toBeUndefined();
  });
});
