import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import yazl from "yazl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImageServer } from "../../../tests/support/image-server.ts";
import { multipartBody, type FormFields } from "../../../tests/support/multipart.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { postTagSlugs } from "../../core/posts/post-tags.ts";
import { redirectsFile } from "../../lib/post-redirects.ts";
import type { ImportRun } from "../../core/imports/import.schema.ts";
import { publishedPostRedirects } from "../../core/posts/post-slug-store.ts";
import { publishedImportRedirects } from "../../core/imports/import-redirects.ts";

const fixtures = new URL("../../../tests/fixtures/imports/", import.meta.url);

describe.each(featureDatabaseTargets)("imports on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let images: Awaited<ReturnType<typeof startImageServer>>;
  const fixture = async (name: string) => new File([(await readFile(new URL(name, fixtures), "utf8")).replaceAll("{{SERVER}}", images.url)], name);

  /** A fixture folder as the zip the service exports: every file under it, `{{SERVER}}` made the image server's address. */
  const zipFixture = async (folder: string): Promise<File> => {
    const zip = new yazl.ZipFile();
    const root = new URL(`${folder}/`, fixtures);
    for (const name of (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile())) {
      const full = path.join(name.parentPath, name.name);
      const relative = path.relative(fileURLToPath(root), full).split(path.sep).join("/");
      zip.addBuffer(Buffer.from((await readFile(full, "utf8")).replaceAll("{{SERVER}}", images.url)), relative);
    }
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
    return new File([Buffer.concat(chunks)], `${folder}.zip`);
  };

  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db, env: { IMPORT_ALLOW_PRIVATE_HOSTS: "1" } });
    images = await startImageServer();
    await testDb.db.query("INSERT INTO posts (title, content, slug) VALUES ('Here first', '<p>Mine</p>', 'hello-world')");
  });
  afterAll(async () => {
    await app.close();
    await images.stop();
    await testDb.drop();
  });

  async function runImport(form: FormFields): Promise<ImportRun> {
    const { body, contentType } = await multipartBody(form);
    const started = await app.call("/api/imports", { method: "POST", body, headers: { ...(await app.adminHeaders()), "content-type": contentType } });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: number };
    // The test app waits for work a call hands to waitUntil: the run is over when the call answers.
    const run = await app.call(`/api/imports/${String(id)}`, { headers: await app.adminHeaders() });
    expect(run.status).toBe(200);
    return (await run.json()) as ImportRun;
  }

  const tagsOfPost = async (slug: string) => {
    const { rows } = await testDb.db.query<{ id: number }>("SELECT id FROM posts WHERE slug = $1", [slug]);
    const id = rows[0]?.id ?? 0;
    return (await postTagSlugs(testDb.db, [id])).get(id);
  };

  const postCount = async () => Number((await testDb.db.query<{ n: string }>("SELECT count(*) AS n FROM posts")).rows[0]?.n);

  it("answers 401 without a session and 400 for an unknown source", async () => {
    const { body, contentType } = await multipartBody({ source: "ghost", file: await fixture("ghost-5.json") });
    expect(
      (await app.call("/api/imports", { method: "POST", body, headers: { "content-type": contentType, origin: "http://localhost:8888" } })).status,
    ).toBe(401);
    const bad = await multipartBody({ source: "blogger", file: await fixture("ghost-5.json") });
    const answer = await app.call("/api/imports", {
      method: "POST",
      body: bad.body,
      headers: { ...(await app.adminHeaders()), "content-type": bad.contentType },
    });
    expect(answer.status).toBe(400);
  });

  it("dry-runs a Ghost export: reports and changes nothing", async () => {
    const before = await postCount();
    const run = await runImport({ source: "ghost", file: await fixture("ghost-5.json"), siteUrl: images.url });
    expect(run).toMatchObject({ status: "done", dryRun: true, source: "ghost" });
    expect(run.report.posts).toEqual({ new: 4, skipped: 0, failed: 0 });
    expect(run.report.images.copied).toBe(3);
    expect(run.report.redirects).toBe(2);
    expect(run.report.warnings).toContainEqual({ post: "Hello world", message: expect.stringContaining('it becomes "hello-world-2"') as string });
    expect(await postCount()).toBe(before);
    expect(images.requests).toEqual([]);
  });

  it("imports a Ghost export: sanitized HTML, images in the store, states, category, slugs and redirects; a second run adds nothing", async () => {
    const run = await runImport({ source: "ghost", file: await fixture("ghost-5.json"), siteUrl: images.url, dryRun: "false" });
    expect(run.status).toBe("done");
    expect(run.report.posts).toEqual({ new: 4, skipped: 0, failed: 0 });
    expect(run.report.images.copied).toBe(2);
    expect(run.report.images.failed).toEqual([{ url: `${images.url}/content/images/missing.png`, reason: "The old site answered 404" }]);
    const { rows } = await testDb.db.query<{
      title: string;
      slug: string;
      content: string;
      published: boolean;
      publish_at: Date | null;
      category: string | null;
      featured_image_key: string | null;
      excerpt: string | null;
    }>("SELECT title, slug, content, published, publish_at, category, featured_image_key, excerpt FROM posts ORDER BY id");
    const bySlug = new Map(rows.map((row) => [row.slug, row]));
    const cash = bySlug.get("cash-flow-before-growth");
    expect(cash).toMatchObject({ published: true, category: "Cash Flow", excerpt: "Why cash comes first." });
    expect(cash?.featured_image_key).toMatch(/^images\/.+_30x30\.jpg$/);
    expect(cash?.content).not.toMatch(/script|onclick|iframe|style=|srcset|__GHOST_URL__/);
    expect(cash?.content).toMatch(/<img src="\/api\/files\/images\/[^"]+_40x20\.png" alt="A chart" \/>/);
    const stored = await app.deps.files.get(cash?.featured_image_key ?? "");
    expect(stored?.contentType).toBe("image/jpeg");
    // Cleaned like an upload: the old blog's EXIF is gone.
    expect(Buffer.from(stored?.data ?? []).includes(Buffer.from("old blog"))).toBe(false);
    expect(bySlug.get("cafe-creme")).toMatchObject({ title: "Café & crème: ünïcödé 日本語", published: false });
    expect(bySlug.get("cafe-creme")?.content).not.toContain("<img");
    expect(bySlug.get("coming-soon")).toMatchObject({ published: false, publish_at: new Date("2027-01-01T09:00:00.000Z") });
    expect(bySlug.get("hello-world-2")).toMatchObject({ title: "Hello world", published: true });
    expect(bySlug.get("about")).toBeUndefined();
    // Ghost's tags (tags + posts_tags) become the post's tags, in Ghost's order.
    expect(await tagsOfPost("cash-flow-before-growth")).toEqual(["growth", "cash-flow"]);
    expect(await tagsOfPost("cafe-creme")).toEqual([]);
    const redirects = redirectsFile(await publishedPostRedirects(testDb.db), await publishedImportRedirects(testDb.db));
    expect(redirects).toContain("/cash-flow-before-growth /blog/cash-flow-before-growth 301\n");
    expect(redirects).toContain("/hello-world /blog/hello-world-2 301\n");
    expect(app.rebuilds.count).toBeGreaterThan(0);

    const before = await postCount();
    const again = await runImport({ source: "ghost", file: await fixture("ghost-5.json"), siteUrl: images.url, dryRun: "false" });
    expect(again.report.posts).toEqual({ new: 0, skipped: 4, failed: 0 });
    expect(await postCount()).toBe(before);
  });

  it("imports a WordPress WXR: posts only, wpautop paragraphs, shortcodes handled or listed, featured image through the attachment", async () => {
    const dry = await runImport({ source: "wordpress", file: await fixture("wordpress.wxr") });
    expect(dry.report.posts).toEqual({ new: 4, skipped: 0, failed: 0 });
    const run = await runImport({ source: "wordpress", file: await fixture("wordpress.wxr"), dryRun: "false" });
    expect(run.status).toBe("done");
    expect(run.report.posts).toEqual({ new: 4, skipped: 0, failed: 0 });
    expect(run.report.images).toEqual({ copied: 1, failed: [] });
    const messages = run.report.warnings.map((warning) => `${warning.post}: ${warning.message}`);
    expect(messages).toContain("Raising a seed round: Shortcode [gallery] is not supported and was removed.");
    expect(messages).toContain("Raising a seed round: Shortcode [contact-form-7] is not handled: it is left as text.");
    expect(messages).toContain("Private notes: A private post: imported as a draft.");
    const { rows } = await testDb.db.query<{
      title: string;
      slug: string;
      content: string;
      published: boolean;
      publish_at: Date | null;
      category: string | null;
      featured_image_key: string | null;
    }>(
      "SELECT p.title, p.slug, p.content, p.published, p.publish_at, p.category, p.featured_image_key FROM posts p JOIN imported_posts i ON i.post_id = p.id WHERE i.source = 'wordpress' ORDER BY p.id",
    );
    const [seed, block, future, privateNotes] = rows;
    expect(seed).toMatchObject({ slug: "raising-a-seed-round", published: true, category: "Funding" });
    // WordPress's tags (`<category domain="post_tag">`) become the post's tags; its categories do not.
    expect(await tagsOfPost("raising-a-seed-round")).toEqual(["seed"]);
    expect(seed?.content).toContain("<p>First line of the first paragraph<br />\nsecond line of it.</p>");
    expect(seed?.content).toContain("<ul>");
    expect(seed?.content).toContain("<em>The round, in a chart</em>");
    expect(seed?.content).not.toContain("[gallery");
    // Its featured image and its inline image are the same file on the old site: fetched once.
    expect(seed?.content).toContain(`/api/files/${String(seed?.featured_image_key)}`);
    // A non-ASCII slug (stored percent-encoded) is turned into ASCII the way our own slugs are.
    expect(block).toMatchObject({ slug: "uenicode-title", published: false });
    expect(block?.content.replace(/\s+/g, "")).toBe("<p>Ablock-editordraft.</p><h2>Aheading</h2>");
    expect(future).toMatchObject({ published: false, publish_at: new Date("2027-02-01T08:00:00.000Z") });
    expect(privateNotes).toMatchObject({ published: false, slug: "hello-world-3" });
    expect(await publishedImportRedirects(testDb.db)).toContainEqual({ from: "/2024/03/raising-a-seed-round", to: "raising-a-seed-round" });

    const again = await runImport({ source: "wordpress", file: await fixture("wordpress.wxr"), dryRun: "false" });
    expect(again.report.posts).toEqual({ new: 0, skipped: 4, failed: 0 });
  });

  it("imports a Substack export: its chrome removed, drafts kept, the email list only with consent", async () => {
    const withoutConsent = await runImport({ source: "substack", file: await zipFixture("substack") });
    expect(withoutConsent.report.subscribers).toEqual({ imported: 0, skipped: 3, alreadyThere: 0, keptOut: 3, invalid: 0 });
    const run = await runImport({ source: "substack", file: await zipFixture("substack"), dryRun: "false", consent: "true" });
    expect(run.status).toBe("done");
    expect(run.report.posts).toEqual({ new: 3, skipped: 1, failed: 0 });
    expect(run.report.subscribers).toEqual({ imported: 2, skipped: 1, alreadyThere: 0, keptOut: 1, invalid: 0 });
    expect(run.report.images).toEqual({ copied: 1, failed: [] });
    expect(run.report.warnings.map((warning) => `${warning.post}: ${warning.message}`)).toContain(
      "The podcast: No HTML file for this post (posts/104.the-podcast.html): not imported.",
    );
    const { rows } = await testDb.db.query<{ title: string; slug: string; content: string; published: boolean; excerpt: string | null }>(
      "SELECT p.title, p.slug, p.content, p.published, p.excerpt FROM posts p JOIN imported_posts i ON i.post_id = p.id WHERE i.source = 'substack' ORDER BY p.id",
    );
    expect(rows.map((row) => [row.slug, row.published])).toEqual([
      ["first-letter", true],
      ["zweiter-brief", true],
      ["unfinished", false],
    ]);
    const first = rows[0]?.content ?? "";
    expect(first).toContain("Welcome to the first letter.");
    expect(first).toContain("Last paragraph.");
    expect(first).toMatch(/<img src="\/api\/files\/images\/[^"]+_40x20\.png" alt="A photo" \/>/);
    expect(first).not.toMatch(/Subscribe|Thanks for reading|Type your email/);
    expect(rows[1]?.content).not.toContain("Share");
    expect(rows[0]?.excerpt).toBe("Where it all starts");
    const subscribers = await testDb.db.query<{ email: string; status: string; source: string }>(
      "SELECT email, status, source FROM subscribers ORDER BY email",
    );
    expect(subscribers.rows).toEqual([
      { email: "paid@example.com", status: "active", source: "import" },
      { email: "reader@example.com", status: "active", source: "import" },
    ]);
    expect(await publishedImportRedirects(testDb.db)).toContainEqual({ from: "/p/first-letter", to: "first-letter" });
    const again = await runImport({ source: "substack", file: await zipFixture("substack"), dryRun: "false", consent: "true" });
    expect(again.report.posts).toEqual({ new: 0, skipped: 4, failed: 0 });
    expect(again.report.subscribers).toEqual({ imported: 0, skipped: 3, alreadyThere: 2, keptOut: 1, invalid: 0 });
  });

  it("imports a Medium export: drafts kept as drafts, the title and subtitle not repeated in the body", async () => {
    const run = await runImport({ source: "medium", file: await zipFixture("medium"), dryRun: "false" });
    expect(run.status).toBe("done");
    expect(run.report.posts).toEqual({ new: 2, skipped: 0, failed: 0 });
    const { rows } = await testDb.db.query<{ title: string; slug: string; content: string; published: boolean; excerpt: string | null }>(
      "SELECT p.title, p.slug, p.content, p.published, p.excerpt FROM posts p JOIN imported_posts i ON i.post_id = p.id WHERE i.source = 'medium' ORDER BY p.id",
    );
    expect(rows.map((row) => [row.title, row.published])).toEqual([
      ["Cash is a fact", true],
      ["Half an idea", false],
    ]);
    expect(rows[0]?.content).not.toMatch(/Cash is a fact|Profit is an opinion/);
    expect(rows[0]?.content).toContain("<p>Every founder learns it.</p>");
    expect(rows[0]?.content).toMatch(/<img src="\/api\/files\/images\/[^"]+_40x20\.png"/);
    expect(rows[0]?.excerpt).toBe("Profit is an opinion");
    expect(rows[1]?.content).not.toContain("Half an idea");
    expect(await publishedImportRedirects(testDb.db)).toContainEqual({ from: "/@founder/cash-is-a-fact-1a2b3c4d5e6f", to: "cash-is-a-fact" });
    const again = await runImport({ source: "medium", file: await zipFixture("medium"), dryRun: "false" });
    expect(again.report.posts).toEqual({ new: 0, skipped: 2, failed: 0 });
  });

  it("takes a file in parts (a chunked upload) and streams a WXR from them", async () => {
    const headers = await app.adminHeaders();
    const started = await app.call("/api/uploads", { method: "POST", headers });
    expect(started.status).toBe(201);
    const { uploadId } = (await started.json()) as { uploadId: string };
    const bytes = new Uint8Array(await (await fixture("wordpress.wxr")).arrayBuffer());
    const size = Math.ceil(bytes.byteLength / 3);
    expect((await app.call(`/api/uploads/${uploadId}/complete`, { method: "POST", headers })).status).toBe(400);
    for (let part = 1; part <= 3; part++) {
      const body = bytes.slice((part - 1) * size, part * size);
      const put = await app.call(`/api/uploads/${uploadId}/${String(part)}`, {
        method: "PUT",
        body,
        headers: { ...headers, "content-type": "application/octet-stream" },
      });
      expect(put.status).toBe(204);
    }
    const unknown = await app.call(`/api/uploads/${crypto.randomUUID()}/1`, { method: "PUT", body: "x", headers });
    expect(unknown.status).toBe(404);
    const complete = await app.call(`/api/uploads/${uploadId}/complete`, { method: "POST", headers });
    expect(await complete.json()).toEqual({ uploadId, parts: 3 });
    const run = await runImport({ source: "wordpress", uploadId });
    expect(run).toMatchObject({ status: "done", dryRun: true });
    // Already imported above: the dry run says it would skip them all.
    expect(run.report.posts).toEqual({ new: 0, skipped: 4, failed: 0 });
    const left: string[] = [];
    for await (const key of app.deps.files.list(`uploads/${uploadId}/`)) left.push(key);
    expect(left).toEqual([]);
  });

  it("fails a run whose file is not the export it claims, with the reason", async () => {
    const run = await runImport({ source: "wordpress", file: await fixture("ghost-5.json"), dryRun: "false" });
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/not a WordPress export/);
  });
});
