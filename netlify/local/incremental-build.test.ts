import { statSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSiteDatabase, filesOf, query, siteBuildEnv, siteFiles, slugOf } from "../../tests/support/built-site.ts";
import { SiteBuilder } from "./site-builder.ts";

// Real `astro build`s of a small site on PostgreSQL (the build reads its data over DATABASE_URL, which
// the embedded test database has not): the incremental build of a change must leave the live site
// exactly as a clean full build of the same data would, touching no page the change did not reach.
// docs/decisions/0089-incremental-site-build.md
const serverUrl = process.env.TEST_DATABASE_URL;
const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

describe.skipIf(!serverUrl)("incremental site build (PostgreSQL)", () => {
  let root: string;
  let databaseUrl: string;
  let dropDatabase: (() => Promise<void>) | undefined;
  const logged: string[] = [];
  const builder = (site: string, { sharedMarkup = true } = {}) =>
    new SiteBuilder({
      projectRoot,
      publishDir: path.join(root, site),
      buildsDir: path.join(root, `${site}-builds`),
      cacheDir: path.join(root, "astro-cache"),
      env: siteBuildEnv({
        DATABASE_URL: databaseUrl,
        SITE_URL: "https://example.com",
        ADMIN_PATH: "test-admin",
        ...(!sharedMarkup && { SITE_BUILD_SHARED_MARKUP: "off" }),
      }),
      log: (message) => {
        logged.push(message);
      },
      listPagesPerPass: 1,
    });

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "nf-incremental-"));
    // 60 posts: five lists of several pages each, so a post at the top shifts pages past the first pass.
    ({ url: databaseUrl, drop: dropDatabase } = await createSiteDatabase(serverUrl ?? "", 60));
  }, 120_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await dropDatabase?.();
  });

  it("renders only what a change touched, makes the new post searchable, and ends equal to a clean full build", async () => {
    const live = builder("live");
    expect((await live.request()).ok).toBe(true);
    const liveDir = path.join(root, "live");
    const before = new Map<string, { ino: number; mtimeMs: number }>();
    for (const file of await filesOf(liveDir)) {
      const info = await stat(path.join(liveDir, file));
      before.set(file, { ino: info.ino, mtimeMs: info.mtimeMs });
    }
    const [edited, unpublished, untouched] = [await slugOf(databaseUrl, 30), await slugOf(databaseUrl, 31), await slugOf(databaseUrl, 50)];

    // A new post at the top of its lists (tagged), an old post edited, another unpublished.
    const inserted = await query(
      databaseUrl,
      `INSERT INTO posts (title, content, excerpt, category, read_time, published, published_at)
       VALUES ('Zebracorn launch', '<p>The zebracorn went live today.</p>', 'A launch.', 'Funding', 1, true, now()) RETURNING id, slug`,
    );
    const fresh = inserted.rows[0] as { id: number; slug: string };
    await query(databaseUrl, "INSERT INTO post_tags (post_id, tag_id) SELECT $1, id FROM tags WHERE slug = 'runway'", [fresh.id]);
    await query(databaseUrl, "UPDATE posts SET title = 'Edited title', updated_at = now() WHERE id = 30");
    await query(databaseUrl, "UPDATE posts SET published = false, published_at = NULL WHERE id = 31");

    // Rendered by the full build's kept renderer (decision 0091), not a second `astro build`.
    expect(await live.change()).toMatchObject({ ok: true, kept: true });
    // The first pass: the post's own page, the first pages of its lists, its feeds, the sitemap.
    expect(await readFile(path.join(liveDir, "blog", fresh.slug, "index.html"), "utf8")).toContain("Zebracorn launch");
    for (const page of ["blog/index.html", "blog/category/funding/index.html", "blog/tag/runway/index.html", "index.html", "rss.xml"]) {
      expect(await readFile(path.join(liveDir, page), "utf8"), page).toContain("Zebracorn launch");
    }
    expect(await readFile(path.join(liveDir, "sitemap-0.xml"), "utf8")).toContain(`/blog/${fresh.slug}/`);
    expect(await readFile(path.join(liveDir, "blog", edited, "index.html"), "utf8")).toContain("Edited title");
    await expect(stat(path.join(liveDir, "blog", unpublished, "index.html"))).rejects.toThrow();
    await live.settled();
    expect(logged.filter((line) => line.includes("kept renderer failed") || line.includes("by astro build"))).toEqual([]);

    // Searchable: the delta index holds the new and the edited post; the full index's entries for them and the unpublished one are stale.
    const delta = JSON.parse(await readFile(path.join(liveDir, "pagefind", "delta.json"), "utf8")) as { index: string; stale: string[] };
    expect(delta.stale.sort()).toEqual([`/blog/${edited}`, `/blog/${fresh.slug}`, `/blog/${unpublished}`].sort());
    const fragments = await readdir(path.join(liveDir, delta.index, "fragment"));
    const records = await Promise.all(
      fragments.map(async (file) => gunzipSync(await readFile(path.join(liveDir, delta.index, "fragment", file))).toString("utf8")),
    );
    expect(records.some((record) => record.includes(`/blog/${fresh.slug}`) && record.includes("zebracorn"))).toBe(true);
    // Written before the pages went live, from the pass's own pages: the edited post under its new title.
    expect(records.some((record) => record.includes(`/blog/${edited}`) && record.includes("Edited title"))).toBe(true);

    // Untouched: an old post's page far from the change is the same file, never rewritten.
    const untouchedFile = path.join("blog", untouched, "index.html");
    const after = await stat(path.join(liveDir, untouchedFile));
    expect({ ino: after.ino, mtimeMs: after.mtimeMs }).toEqual(before.get(untouchedFile));
    const rewritten = [...before.keys()]
      .filter((file) => !file.startsWith("pagefind"))
      .filter((file) => {
        const now = statSyncSafe(path.join(liveDir, file));
        return now && (now.ino !== before.get(file)?.ino || now.mtimeMs !== before.get(file)?.mtimeMs);
      });
    expect(rewritten.every((file) => !file.startsWith(path.join("blog", "post-")) || file.includes(edited))).toBe(true);

    // Byte for byte what a clean full build of the same data writes (the search indexes aside), one that renders
    // every page whole: the markup a build renders once and shares (`builtOnce`) is what each page would render.
    const clean = builder("clean", { sharedMarkup: false });
    expect((await clean.request()).ok).toBe(true);
    // Its build process stays for incremental passes this test does not make.
    clean.stop();
    const cleanFiles = await siteFiles(path.join(root, "clean"));
    const liveFiles = await siteFiles(liveDir);
    expect([...liveFiles.keys()]).toEqual([...cleanFiles.keys()]);
    for (const [file, content] of cleanFiles) expect(liveFiles.get(file), file).toBe(content);

    // And the full build that follows writes the same site again, with no delta left.
    expect((await live.request()).ok).toBe(true);
    const rebuilt = await siteFiles(liveDir);
    expect([...rebuilt.keys()]).toEqual([...cleanFiles.keys()]);
    for (const [file, content] of cleanFiles) expect(rebuilt.get(file), file).toBe(content);
    expect(JSON.parse(await readFile(path.join(liveDir, "pagefind", "delta.json"), "utf8"))).toEqual({ shards: [], index: null, stale: [] });
    live.stop();
  }, 900_000);
});

function statSyncSafe(file: string): { ino: number; mtimeMs: number } | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
