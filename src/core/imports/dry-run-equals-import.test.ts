import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import yazl from "yazl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImageServer } from "../../../tests/support/image-server.ts";
import { multipartBody, type FormFields } from "../../../tests/support/multipart.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import type { ImportReport, ImportRun } from "./import.schema.ts";

// Issue 48: a dry run is the import without the writes. On exports with the edge cases owners
// bring (a duplicate slug, no title, an attachment or image only, a page, private, password or
// members-only posts, a revision, unsubscribed and pending addresses), the two reports are equal
// field by field, and every item of the export is in exactly one of imported, skipped or failed.
const fixtures = new URL("../../../tests/fixtures/imports/edge-cases/", import.meta.url);

describe.each(featureDatabaseTargets)("a dry run equals its import on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let images: Awaited<ReturnType<typeof startImageServer>>;
  const text = async (name: string) => (await readFile(new URL(name, fixtures), "utf8")).replaceAll("{{SERVER}}", images.url);
  const fixture = async (name: string) => new File([await text(name)], name);
  const zipFixture = async (folder: string): Promise<File> => {
    const zip = new yazl.ZipFile();
    const root = new URL(`${folder}/`, fixtures);
    for (const entry of (await readdir(root, { recursive: true, withFileTypes: true })).filter((file) => file.isFile())) {
      const full = path.join(entry.parentPath, entry.name);
      zip.addBuffer(
        Buffer.from(await text(path.relative(fileURLToPath(fixtures), full))),
        path.relative(fileURLToPath(root), full).split(path.sep).join("/"),
      );
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
    // Two people of the lists are already here: one left, one has not confirmed yet. Neither changes.
    await testDb.db.query(
      "INSERT INTO subscribers (email, source, status) VALUES ('here-unsubscribed@example.com', 'newsletter', 'unsubscribed'), ('here-pending@example.com', 'newsletter', 'pending')",
    );
    // A shared machine boots PGlite, the Blobs server and the SMTP sink slowly.
  }, 180_000);
  afterAll(async () => {
    await app.close();
    await images.stop();
    await testDb.drop();
  });

  async function run(form: FormFields): Promise<ImportRun> {
    const { body, contentType } = await multipartBody(form);
    const started = await app.call("/api/imports", { method: "POST", body, headers: { ...(await app.adminHeaders()), "content-type": contentType } });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: number };
    const answer = await app.call(`/api/imports/${String(id)}`, { headers: await app.adminHeaders() });
    const done = (await answer.json()) as ImportRun;
    expect(done.status).toBe("done");
    return done;
  }

  /** The dry run, then the import of the same file: their reports, and the rows the import added. */
  async function dryRunThenImport(form: () => Promise<FormFields>): Promise<{ dry: ImportReport; imported: ImportReport; added: number }> {
    const count = async () => Number((await testDb.db.query<{ n: string }>("SELECT count(*) AS n FROM posts")).rows[0]?.n);
    const before = await count();
    const dry = await run({ ...(await form()), dryRun: "true" });
    expect(await count()).toBe(before);
    const imported = await run({ ...(await form()), dryRun: "false" });
    return { dry: dry.report, imported: imported.report, added: (await count()) - before };
  }

  const outcomes = (report: ImportReport) =>
    report.items.map((item) => `${item.kind} ${item.title}: ${item.outcome}${item.reason ? ` (${item.reason})` : ""}`);

  function expectAccountedFor(report: ImportReport, items: number) {
    expect(report.totals.items).toBe(items);
    expect(report.totals.imported + report.totals.skipped + report.totals.failed).toBe(items);
    expect(report.items).toHaveLength(items);
    expect(report.totals.imported).toBe(report.posts.new);
    const { subscribers } = report;
    expect(subscribers.skipped).toBe(subscribers.alreadyThere + subscribers.keptOut + subscribers.invalid);
    expect(report.subscriberReasons.reduce((sum, reason) => sum + reason.count, 0)).toBe(subscribers.skipped);
  }

  it("Ghost: a page and a revision skipped, members-only and paid posts as drafts, members through the consent rule", async () => {
    const { dry, imported, added } = await dryRunThenImport(async () => ({
      source: "ghost",
      file: await fixture("ghost.json"),
      siteUrl: images.url,
      consent: "true",
    }));
    expect(imported).toEqual(dry);
    expectAccountedFor(imported, 9);
    expect(added).toBe(6);
    expect(outcomes(imported)).toEqual([
      "post Ghost same slug: imported",
      "post Ghost same slug, again: imported",
      "post Untitled: imported",
      "post Ghost image only: imported",
      "page About: skipped (A page: only posts are imported.)",
      "post Ghost members only: imported",
      "post Ghost paid only: imported",
      "post Ghost empty: skipped (The export holds no text for it.)",
      "revision Ghost same slug (earlier): skipped (A revision: the post itself is imported.)",
    ]);
    expect(imported.items.map((item) => item.slug)).toEqual([
      "ghost-same",
      "ghost-same-2",
      "untitled",
      "ghost-image-only",
      null,
      "ghost-members-only",
      "ghost-paid-only",
      null,
      null,
    ]);
    expect(imported.items.find((item) => item.title === "Ghost paid only")).toMatchObject({ status: "draft", redirect: "/ghost-paid-only" });
    expect(imported.warnings).toContainEqual({
      post: "Ghost paid only",
      message: "Only for paying members on the old site: imported as a draft, so it is not published to everyone.",
    });
    expect(imported.images).toEqual({ copied: 3, failed: [] });
    expect(imported.subscribers).toEqual({ imported: 1, skipped: 5, alreadyThere: 2, keptOut: 2, invalid: 1 });
    expect(imported.subscriberReasons).toEqual([
      { reason: "Kept out: Unsubscribed on Ghost", count: 1 },
      { reason: "Kept out: Email disabled on Ghost (it bounced or was marked as spam)", count: 1 },
      { reason: "Already here, waiting to confirm: left to confirm", count: 1 },
      { reason: "Already here, unsubscribed: never subscribed again by an import", count: 1 },
      { reason: "Not a valid address or date", count: 1 },
    ]);
    const people = await testDb.db.query<{ email: string; status: string }>("SELECT email, status FROM subscribers ORDER BY email");
    expect(people.rows).toEqual([
      { email: "ghost-new@example.com", status: "active" },
      { email: "here-pending@example.com", status: "pending" },
      { email: "here-unsubscribed@example.com", status: "unsubscribed" },
    ]);
  });

  it("WordPress: every item of the WXR accounted for, attachments' alt text carried over", async () => {
    const { dry, imported, added } = await dryRunThenImport(async () => ({ source: "wordpress", file: await fixture("wordpress.wxr") }));
    expect(imported).toEqual(dry);
    expectAccountedFor(imported, 12);
    expect(added).toBe(7);
    expect(outcomes(imported)).toEqual([
      "post WordPress same slug: imported",
      "post WordPress same slug, again: imported",
      "post Untitled: imported",
      "attachment Red square: skipped (An attachment: its image comes in with the post that shows it.)",
      "post WordPress with a library image: imported",
      "page About: skipped (A page: only posts are imported.)",
      "post WordPress private: imported",
      "post WordPress password protected: imported",
      "revision WordPress same slug: skipped (A revision: the post itself is imported.)",
      "nav menu item Untitled: skipped (A menu item: menus are not imported.)",
      "post WordPress trashed: skipped (In the trash on WordPress.)",
      "post WordPress image only: imported",
    ]);
    expect(imported.items.filter((item) => item.outcome === "imported").map((item) => [item.slug, item.status])).toEqual([
      ["wp-same", "published"],
      ["wp-same-2", "published"],
      ["untitled-2", "draft"],
      ["wp-with-library-image", "published"],
      ["wp-private", "draft"],
      ["wp-password", "draft"],
      ["wp-image-only", "published"],
    ]);
    const { rows } = await testDb.db.query<{ content: string; featured_image_alt: string | null }>(
      "SELECT content, featured_image_alt FROM posts WHERE slug = 'wp-with-library-image'",
    );
    expect(rows[0]?.featured_image_alt).toBe("A red square on white");
    expect(rows[0]?.content).toMatch(/<img src="\/api\/files\/images\/[^"]+" alt="A red square on white" \/>/);
  });

  it("WordPress: an image-only post whose image cannot be fetched is imported as its dry run said, with a placeholder, flagged", async () => {
    // Theme unit test data's "Post Format: Image": the dry run counted it; the import dropped it
    // when its one image failed, since removing the image left nothing.
    const { dry, imported, added } = await dryRunThenImport(async () => ({ source: "wordpress", file: await fixture("wordpress-image-only.wxr") }));
    expect(added).toBe(1);
    expect(dry.items).toEqual([expect.objectContaining({ title: "Post Format: Image", outcome: "imported", images: 1, needsImages: false })]);
    expect(imported.items).toEqual([{ ...dry.items[0], needsImages: true }]);
    expect(imported.posts).toEqual(dry.posts);
    expect(imported.totals).toEqual(dry.totals);
    expect(imported.images.failed).toEqual([
      { url: `${images.url}/wp-content/uploads/2008/06/missing-100_5540.jpg?w=604`, reason: "The old site answered 404" },
    ]);
    const { rows } = await testDb.db.query<{ content: string }>("SELECT content FROM posts WHERE slug = 'post-format-image'");
    expect(rows[0]?.content).toContain("<em>[Image not copied: missing-100_5540.jpg]</em>");
  });

  it("Substack: paid posts as drafts, rows without a body or an id skipped, the list's unsubscribed and already-here addresses counted", async () => {
    const { dry, imported, added } = await dryRunThenImport(async () => ({
      source: "substack",
      file: await zipFixture("substack"),
      consent: "true",
    }));
    expect(imported).toEqual(dry);
    expectAccountedFor(imported, 7);
    expect(added).toBe(5);
    expect(outcomes(imported)).toEqual([
      "post Substack same slug: imported",
      "post Substack same slug again: imported",
      "post Untitled: imported",
      "post Substack image only: imported",
      "post Substack paid only: imported",
      "post Substack podcast: skipped (The export holds no text for it.)",
      "post Substack row without id: skipped (It has no post_id in posts.csv.)",
    ]);
    expect(imported.items.map((item) => item.slug)).toEqual(["sub-same", "sub-same-2", "sub-untitled", "sub-image-only", "sub-paid", null, null]);
    expect(imported.items.find((item) => item.title === "Substack paid only")?.status).toBe("draft");
    expect(imported.subscribers).toEqual({ imported: 1, skipped: 5, alreadyThere: 3, keptOut: 1, invalid: 1 });
    expect(imported.subscriberReasons).toContainEqual({ reason: "Listed more than once: counted once", count: 1 });
    expect(imported.subscriberReasons).toContainEqual({
      reason: "Kept out: Email disabled on Substack (unsubscribed, bounced or marked as spam)",
      count: 1,
    });
  });

  it("Substack without the consent tick: the whole list is kept out, in the dry run as in the import", async () => {
    const { dry, imported } = await dryRunThenImport(async () => ({ source: "substack", file: await zipFixture("substack") }));
    expect(imported).toEqual(dry);
    expect(imported.subscribers).toEqual({ imported: 0, skipped: 6, alreadyThere: 0, keptOut: 6, invalid: 0 });
  });

  it("Medium: two posts with one title, an untitled one, an image-only one, a draft and a file without a body", async () => {
    const { dry, imported, added } = await dryRunThenImport(async () => ({ source: "medium", file: await zipFixture("medium") }));
    expect(imported).toEqual(dry);
    expectAccountedFor(imported, 6);
    expect(added).toBe(5);
    expect(imported.items.map((item) => [item.title, item.outcome, item.slug, item.status])).toEqual([
      ["Medium same title", "imported", "medium-same-title", "published"],
      ["Medium same title", "imported", "medium-same-title-2", "published"],
      ["Untitled", "imported", "untitled-3", "published"],
      ["Medium image only", "imported", "medium-image-only", "published"],
      ["Medium no body", "skipped", null, null],
      ["Medium private notes", "imported", "medium-private-notes", "draft"],
    ]);
  });
});
