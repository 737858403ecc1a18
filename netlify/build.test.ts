import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSiteDatabase, query, siteBuildEnv, siteFiles, slugOf } from "../tests/support/built-site.ts";

// The real `npm run build` as Netlify runs it (COMMIT_REF set), against a scratch PostgreSQL database,
// with its kept folder in a temporary one: a publish's build of the same commit renders only what
// changed over the kept deploy and writes what a clean full build writes; another commit is a full
// build. docs/decisions/0089-incremental-site-build.md (its Netlify addendum)
const serverUrl = process.env.TEST_DATABASE_URL;
const projectRoot = fileURLToPath(new URL("..", import.meta.url));

describe.skipIf(!serverUrl)("Netlify's build, incremental from the kept deploy (PostgreSQL)", () => {
  let root: string;
  let databaseUrl: string;
  let dropDatabase: (() => Promise<void>) | undefined;

  /** `netlify/build.ts` of `commit` into `root/<site>`; its output (Astro lists each page it renders). */
  const build = (commit: string, site: string) => {
    const run = spawnSync(process.execPath, [path.join(projectRoot, "netlify", "build.ts")], {
      // Run from the temporary folder: Astro's server half lands in the output folder under it, apart from other builds.
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      env: siteBuildEnv({
        DATABASE_URL: databaseUrl,
        SITE_URL: "https://example.com",
        ADMIN_PATH: "test-admin",
        COMMIT_REF: commit,
        SITE_BUILD_KEEP_DIR: path.join(root, "keep"),
        ASTRO_OUT_DIR: path.join(root, site),
        ASTRO_CACHE_DIR: path.join(root, "astro-cache"),
      }),
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    return stripVTControlCharacters(run.stdout);
  };
  /** Every page of a family (or of `only` that one) with its key, as the kept deploy holds them. */
  const keptKeys = async (only?: string) => {
    const keys = new Map<string, string>();
    const dir = path.join(root, "keep", "keys");
    for (const name of await readdir(dir)) {
      if (only !== undefined && name !== `${only}.json`) continue;
      for (const [page, key] of Object.entries(JSON.parse(await readFile(path.join(dir, name), "utf8")) as Record<string, string>))
        keys.set(page, key);
    }
    return keys;
  };
  /** The pages Astro says it rendered (`├─ /blog/x/index.html (+2ms)`), as page keys name them. */
  const pagesRendered = (output: string) => [...output.matchAll(/─ (\/\S+)/g)].map((match) => (match[1] ?? "").replace(/\/index\.html$/, ""));

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "nf-netlify-build-"));
    // The build's server half imports the project's packages from the output folder, outside the project.
    await symlink(path.join(projectRoot, "node_modules"), path.join(root, "node_modules"), "dir");
    ({ url: databaseUrl, drop: dropDatabase } = await createSiteDatabase(serverUrl ?? "", 12));
  }, 120_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await dropDatabase?.();
  });

  it("renders a publish's changed pages over the kept deploy, as a clean full build would; another commit builds in full", async () => {
    const first = build("commit-a", "site");
    expect(first).toContain("Full build: no kept deploy.");
    const posts = await keptKeys("post");
    const postPagesRendered = (output: string) => pagesRendered(output).filter((page) => posts.has(page));
    expect(postPagesRendered(first)).toHaveLength(12);

    const edited = await slugOf(databaseUrl, 5);
    const keysBefore = await keptKeys();
    await query(databaseUrl, "UPDATE posts SET title = 'Edited title', updated_at = now() WHERE id = 5");
    const second = build("commit-a", "site");
    // One post changed: its page is the only post page rendered, and of all the pages of a family (posts,
    // lists, feeds) exactly those whose content changed were rendered; the pages outside them always are.
    expect(postPagesRendered(second)).toEqual([`/blog/${edited}`]);
    const keysAfter = await keptKeys();
    const changed = [...keysAfter].filter(([page, key]) => keysBefore.get(page) !== key).map(([page]) => page);
    expect(changed).toContain(`/blog/${edited}`);
    expect(changed.length).toBeLessThan(keysAfter.size / 2);
    expect(
      pagesRendered(second)
        .filter((page) => keysAfter.has(page))
        .sort(),
    ).toEqual(changed.sort());
    expect(second).toContain(`Incremental build: ${String(changed.length)} pages rendered, 0 removed, 1 post in the search's delta.`);
    const delta = JSON.parse(await readFile(path.join(root, "site", "pagefind", "delta.json"), "utf8")) as { index: string | null; stale: string[] };
    expect(delta.stale).toEqual([`/blog/${edited}`]);
    expect(delta.index).not.toBeNull();
    expect(await readFile(path.join(root, "site", "blog", edited, "index.html"), "utf8")).toContain("Edited title");

    // Another commit: a full build, the clean build of the same data the incremental one must equal byte for byte.
    const third = build("commit-b", "clean");
    expect(third).toContain("Full build: another commit or configuration than the kept deploy's.");
    expect(postPagesRendered(third)).toHaveLength(12);
    const [incremental, clean] = await Promise.all([siteFiles(path.join(root, "site")), siteFiles(path.join(root, "clean"))]);
    expect([...incremental.keys()]).toEqual([...clean.keys()]);
    for (const [file, content] of clean) expect(incremental.get(file), file).toBe(content);
    expect(JSON.parse(await readFile(path.join(root, "clean", "pagefind", "delta.json"), "utf8"))).toEqual({ shards: [], index: null, stale: [] });
  }, 600_000);
});
