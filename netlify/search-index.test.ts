import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildSearchIndex, resourceRecords } from "./search-index.ts";

const downloadsPage = `<!doctype html><html lang="en"><body><main>
  <article id="resource-7" data-search-resource><h2 data-search-title> Pitch Deck Checklist </h2>
    <span>12 downloads</span><p data-search-description>Every box to tick before the meeting.</p><button>Get Free Download</button></article>
  <article id="resource-9" data-search-resource><h2 data-search-title>Cash Flow Tracker</h2><p data-search-description>Runway &amp; balance.</p></article>
</main></body></html>`;

describe("resourceRecords", () => {
  it("makes one record per resource card of the built /downloads page: title, description, a link to the card", () => {
    expect(resourceRecords(downloadsPage)).toEqual([
      {
        url: "/downloads#resource-7",
        content: "Pitch Deck Checklist. Every box to tick before the meeting.",
        language: "en",
        meta: { title: "Pitch Deck Checklist", kind: "Resource" },
      },
      {
        url: "/downloads#resource-9",
        content: "Cash Flow Tracker. Runway & balance.",
        language: "en",
        meta: { title: "Cash Flow Tracker", kind: "Resource" },
      },
    ]);
  });

  it("finds nothing on a page without resources", () => {
    expect(resourceRecords("<html><body><p>No resources yet.</p></body></html>")).toEqual([]);
  });
});

describe("buildSearchIndex", () => {
  let siteDir: string | undefined;
  afterEach(async () => {
    if (siteDir) await rm(siteDir, { recursive: true, force: true });
  });

  it("indexes the post pages (data-pagefind-body) and the resources, and nothing else the build wrote", { timeout: 30_000 }, async () => {
    siteDir = await mkdtemp(path.join(tmpdir(), "nf-search-"));
    const page = async (pagePath: string, html: string) => {
      await mkdir(path.join(siteDir ?? "", pagePath), { recursive: true });
      await writeFile(path.join(siteDir ?? "", pagePath, "index.html"), html);
    };
    await page(
      "blog/the-runway-talk",
      `<html lang="en"><body><article data-pagefind-body><h1>The runway talk</h1><p>Body words.</p></article></body></html>`,
    );
    await page("blog", `<html lang="en"><body><h1>The Unfiltered Truth</h1><p>The list.</p></body></html>`);
    await page("downloads", downloadsPage);

    const result = await buildSearchIndex(siteDir);
    expect(result).toMatchObject({ records: 3, resources: 2 });
    const written = await readdir(path.join(siteDir, "pagefind"));
    expect(written).toEqual(expect.arrayContaining(["pagefind.js", "pagefind-entry.json", "index", "fragment"]));
  });
});
