import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import sharp from "sharp";
import { multipartBody } from "../../../tests/support/multipart.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import type { Backup, RestoreRun } from "../../core/backups/backup.schema.ts";
import type { Manifest } from "../../core/backups/backup-archive.ts";
import { backupIfDue } from "../../core/backups/backup-runs.ts";
import { readZipEntries } from "../../core/imports/zip-entries.ts";

/** Reads a zip back entry by entry (as written), to rebuild it with one entry changed. */
async function unzip(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  return readZipEntries(bytes, () => true, "not a zip");
}

async function zipOf(entries: Map<string, Uint8Array>): Promise<Uint8Array> {
  const zip = new yazl.ZipFile();
  for (const [path, data] of entries) zip.addBuffer(Buffer.from(data), path);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

/** A download link opened in the owner's signed-in browser (the link alone opens nothing). */
async function owner(app: TestApp, url: string, init: RequestInit = {}): Promise<Response> {
  return app.call(url, { ...init, headers: { ...(await app.adminHeaders()), ...(init.headers as Record<string, string> | undefined) } });
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const manifestOf = async (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode((await unzip(bytes)).get("manifest.json"))) as Manifest;

describe.each(featureDatabaseTargets)("backup and restore on $name", (target) => {
  let first: { db: TestDatabase; app: TestApp };
  let second: { db: TestDatabase; app: TestApp };
  /** A backup of `first` as set up below, made through the API once: the tests that read or restore one start from it. */
  let archive: Uint8Array;
  // The round trip is what goes through each driver (every table's rows read and written back); the
  // other tests prove links, parts, checks and pruning, the same whatever the driver: the first target runs them.
  const firstTargetOnly = it.runIf(target === featureDatabaseTargets[0]);

  async function site() {
    const db = await target.createMigrated();
    return { db, app: await createTestApp({ db: db.db }) };
  }

  beforeAll(async () => {
    first = await site();
    second = await site();
    // A site with a post and its image, a resource with its file and thumbnail, subscribers, a former slug.
    const image = new Uint8Array(
      await sharp({ create: { width: 8, height: 4, channels: 3, background: "#123" } })
        .png()
        .toBuffer(),
    );
    const { files } = first.app.deps;
    await files.put("images/one_8x4.png", image, { contentType: "image/png", fileName: "one.png" });
    await files.put("images/thumb_8x4.png", image, { contentType: "image/png", fileName: "thumb.png" });
    await files.put("downloads/guide.pdf", new TextEncoder().encode("%PDF-1.4 guide"), { contentType: "application/pdf", fileName: "Guide ü.pdf" });
    const db = first.db.db;
    await db.query(
      `INSERT INTO posts (title, content, slug, published, published_at, featured_image_key, email_subject) VALUES
       ('Café', '<p>Hello <img src="/api/files/images/one_8x4.png" alt="" /></p>', 'cafe', true, '2024-01-01T10:00:00.123456Z', 'images/one_8x4.png', 'Coffee, at last'),
       ('Draft', '<p>Later</p>', 'draft', false, NULL, NULL, NULL)`,
    );
    await db.query("INSERT INTO post_slug_redirects (old_slug, post_id) SELECT 'old-cafe', id FROM posts WHERE slug = 'cafe'");
    // Tags (migration 0040): the tag, the post's link to it, and its old slug's redirect.
    await db.query("INSERT INTO tags (slug, name, description, topic) VALUES ('coffee', 'Coffee', 'Brewing a company', true)");
    await db.query("INSERT INTO post_tags (post_id, tag_id) SELECT p.id, t.id FROM posts p, tags t WHERE p.slug = 'cafe' AND t.slug = 'coffee'");
    await db.query("INSERT INTO tag_slug_redirects (old_slug, tag_id) SELECT 'espresso', id FROM tags WHERE slug = 'coffee'");
    await db.query(
      "INSERT INTO downloads (title, description, category, file_name, file_key, file_type, file_size, thumbnail_key) VALUES ('Guide', 'A guide', 'Guides', 'Guide ü.pdf', 'downloads/guide.pdf', 'application/pdf', 14, 'images/thumb_8x4.png')",
    );
    await db.query("INSERT INTO subscribers (email, source) VALUES ('a@example.com', 'import'), ('b@example.com', 'newsletter')");
    // Comments (issue 44 point 7): a reader's comment, the owner's reply under it (a row pointing at its parent), a held one.
    await db.query(
      `WITH top AS (
         INSERT INTO comments (post_id, subscriber_id, body, html, status, created_at)
         SELECT p.id, s.id, 'First!', '<p>First!</p>', 'approved', '2024-01-02T10:00:00Z' FROM posts p, subscribers s WHERE p.slug = 'cafe' AND s.email = 'a@example.com'
         RETURNING id, post_id)
       INSERT INTO comments (post_id, parent_id, is_owner, body, html, status, created_at)
       SELECT post_id, id, true, 'Thanks', '<p>Thanks</p>', 'approved', '2024-01-02T11:00:00Z' FROM top`,
    );
    await db.query(
      "INSERT INTO comments (post_id, subscriber_id, body, html, status, hold_reason, created_at) SELECT p.id, s.id, 'Wait', '<p>Wait</p>', 'held', 'The reader''s first comment', now() FROM posts p, subscribers s WHERE p.slug = 'cafe' AND s.email = 'b@example.com'",
    );
    // A send with its counters (migration 0037): a restore writes them and then the rows they count.
    await db.query(
      "INSERT INTO newsletter_sends (post_id, status, subject, html, text, created_at) SELECT id, 'sending', 'Café', '', '', now() FROM posts WHERE slug = 'cafe'",
    );
    await db.query(
      "INSERT INTO newsletter_recipients (send_id, subscriber_id, status) SELECT (SELECT max(id) FROM newsletter_sends), id, CASE WHEN email = 'a@example.com' THEN 'sent' ELSE 'pending' END FROM subscribers",
    );
    await db.query("INSERT INTO site_settings (key, value) VALUES ('hero_title', 'Mine') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value");
    await db.query("DELETE FROM posts WHERE slug = 'draft'");
    await db.query("INSERT INTO posts (title, content, slug) VALUES ('Draft again', '<p>Later</p>', 'draft-again')");
    archive = await backup(first.app);
  });
  afterAll(async () => {
    for (const { app, db } of [first, second]) {
      await app.close();
      await db.drop();
    }
  });

  async function backup(app: TestApp): Promise<Uint8Array> {
    const headers = await app.adminHeaders();
    expect((await app.call("/api/backups", { method: "POST", headers })).status).toBe(202);
    const [latest] = (await (await app.call("/api/backups", { headers })).json()) as Backup[];
    expect(latest?.status).toBe("done");
    const download = await owner(app, latest?.downloadUrl ?? "");
    expect(download.status).toBe(200);
    return new Uint8Array(await download.arrayBuffer());
  }

  async function restore(app: TestApp, archive: Uint8Array, replace: boolean): Promise<{ status: number; run?: RestoreRun }> {
    const { body, contentType } = await multipartBody({ file: new File([new Uint8Array(archive)], "backup.zip"), replace: String(replace) });
    const started = await app.call("/api/restores", {
      method: "POST",
      body,
      headers: { ...(await app.adminHeaders()), "content-type": contentType },
    });
    if (started.status !== 202) return { status: started.status };
    const { id } = (await started.json()) as { id: number };
    const run = await app.call(`/api/restores/${String(id)}`, { headers: await app.adminHeaders() });
    return { status: 202, run: (await run.json()) as RestoreRun };
  }

  const contentOf = async (db: TestDatabase) =>
    (await db.db.query("SELECT id, title, content, slug, published_at, email_subject FROM posts ORDER BY id")).rows.concat(
      (await db.db.query("SELECT email, source FROM subscribers ORDER BY id")).rows,
      (await db.db.query("SELECT id, slug, name, description, topic FROM tags ORDER BY id")).rows,
      (await db.db.query("SELECT post_id, tag_id, position FROM post_tags ORDER BY post_id, tag_id")).rows,
      (await db.db.query("SELECT old_slug, tag_id FROM tag_slug_redirects ORDER BY old_slug")).rows,
    );

  it("round trip: backup → restore into an empty site → backup gives the same content hashes; secrets stay out", async () => {
    const manifest = await manifestOf(archive);
    const paths = manifest.entries.map((entry) => entry.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "tables/posts.jsonl",
        "tables/subscribers.jsonl",
        "tables/tags.jsonl",
        "tables/post_tags.jsonl",
        "tables/tag_slug_redirects.jsonl",
        "tables/comments.jsonl",
        "settings.json",
        "files.jsonl",
        "files/images/one_8x4.png",
        "files/downloads/guide.pdf",
      ]),
    );
    expect(paths.some((path) => /admin_sessions|passkeys|recovery_codes|backups\//.test(path))).toBe(false);
    expect(manifest.schemaVersion).toMatch(/^\d{4}_/);

    const restored = await restore(second.app, archive, false);
    expect(restored.run).toMatchObject({ status: "done", error: null });
    expect(await contentOf(second.db)).toEqual(await contentOf(first.db));
    const counters = "SELECT count_pending, count_sent FROM newsletter_sends ORDER BY id";
    expect((await second.db.db.query(counters)).rows).toEqual([{ count_pending: 1, count_sent: 1 }]);
    expect((await second.app.deps.files.get("downloads/guide.pdf"))?.fileName).toBe("Guide ü.pdf");
    // A new row continues after the restored ids.
    const { rows } = await second.db.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, slug) VALUES ('New', '<p>x</p>', 'new') RETURNING id",
    );
    const maxBefore = Math.max(...(await first.db.db.query<{ id: number }>("SELECT id FROM posts")).rows.map((row) => row.id));
    expect(rows[0]?.id).toBeGreaterThan(maxBefore);
    await second.db.db.query("DELETE FROM posts WHERE slug = 'new'");

    const again = await manifestOf(await backup(second.app));
    expect(again.entries).toEqual(manifest.entries);
  });

  firstTargetOnly(
    "keeps the privacy promise: no stats salt and no raw page view in a backup (daily totals are), and a restore never brings a salt back",
    async () => {
      const salt = (byte: number) => Buffer.alloc(32, byte);
      await first.db.db.query("INSERT INTO stats_salts (day, salt) VALUES ('2026-11-27', $1)", [salt(1)]);
      await first.db.db.query(
        "INSERT INTO stats_events (day, at, visitor, path, device) VALUES ('2026-11-27', '2026-11-27T08:00:00Z', 'hash-of-127.0.0.1', '/blog/cafe', 'desktop')",
      );
      await first.db.db.query(
        "INSERT INTO stats_daily (day, path, source, utm_medium, utm_campaign, device, country, visitors, pageviews, entries) VALUES ('2026-11-26', '/blog/cafe', '', '', '', 'desktop', '', 3, 4, 3)",
      );
      try {
        const archive = await backup(first.app);
        const entries = await unzip(archive);
        const paths = [...entries.keys()];
        expect(paths).toContain("tables/stats_daily.jsonl");
        expect(paths.filter((path) => /stats_salts|stats_events/.test(path))).toEqual([]);
        const text = [...entries.values()].map((bytes) => Buffer.from(bytes).toString("latin1")).join("\n");
        expect(text).not.toContain("hash-of-127.0.0.1");
        expect(text).not.toContain(salt(1).toString("hex"));

        // An archive made before (it holds the salts and the raw views) restores without them: the site keeps its own salt.
        await second.db.db.query("INSERT INTO stats_salts (day, salt) VALUES ('2026-11-27', $1) ON CONFLICT (day) DO UPDATE SET salt = $1", [
          salt(2),
        ]);
        const manifest = await manifestOf(archive);
        const old = new Map(entries);
        const lines = {
          "tables/stats_salts.jsonl": `${JSON.stringify({ day: "2026-11-27", salt: `\\x${salt(1).toString("hex")}` })}\n`,
          "tables/stats_events.jsonl": `${JSON.stringify({ id: 1, day: "2026-11-27", at: "2026-11-27T08:00:00+00:00", visitor: "hash-of-127.0.0.1", path: "/blog/cafe", source: "", utm_medium: "", utm_campaign: "", device: "desktop", country: "" })}\n`,
        };
        for (const [path, line] of Object.entries(lines)) {
          const bytes = new TextEncoder().encode(line);
          old.set(path, bytes);
          manifest.entries.push({ path, bytes: bytes.byteLength, sha256: sha256(bytes) });
          const name = path.slice("tables/".length, -".jsonl".length);
          manifest.tables.push({ name, path, rows: 1, columns: Object.keys(JSON.parse(line) as object) });
        }
        old.set("manifest.json", new TextEncoder().encode(JSON.stringify(manifest)));
        const restored = await restore(second.app, await zipOf(old), true);
        expect(restored.run).toMatchObject({ status: "done", error: null });
        const salts = (await second.db.db.query<{ salt: Uint8Array }>("SELECT salt FROM stats_salts")).rows;
        expect(salts.map((row) => Buffer.from(row.salt).toString("hex"))).toEqual([salt(2).toString("hex")]);
        expect((await second.db.db.query("SELECT 1 FROM stats_events WHERE visitor = 'hash-of-127.0.0.1'")).rows).toEqual([]);
        expect((await second.db.db.query("SELECT visitors FROM stats_daily WHERE day = '2026-11-26'")).rows).toEqual([{ visitors: 3 }]);
      } finally {
        await first.db.db.exec("DELETE FROM stats_salts; DELETE FROM stats_events; DELETE FROM stats_daily");
      }
    },
  );

  firstTargetOnly("opens a backup's link only with the owner's session, signature or not", async () => {
    const [latest] = (await (await first.app.call("/api/backups", { headers: await first.app.adminHeaders() })).json()) as Backup[];
    const link = latest?.downloadUrl ?? "";
    expect(link).toMatch(/signature=/);
    expect((await owner(first.app, link)).status).toBe(200);
    const stranger = await first.app.call(link);
    expect(stranger.status).toBe(401);
    expect((await first.app.call(link, { method: "HEAD" })).status).toBe(401);
  });

  firstTargetOnly(
    "cleans what it writes: a hand-edited archive restores without one unsafe byte; what fails a save's checks is reported and left out",
    async () => {
      const entries = await unzip(archive);
      const manifest = JSON.parse(new TextDecoder().decode(entries.get("manifest.json"))) as Manifest;
      const linesOf = (path: string) => new TextDecoder().decode(entries.get(path)).split("\n").filter(Boolean);
      const reseal = (path: string, lines: string[]) => {
        const bytes = new TextEncoder().encode(lines.map((line) => `${line}\n`).join(""));
        entries.set(path, bytes);
        const listed = manifest.entries.find((entry) => entry.path === path);
        if (listed) Object.assign(listed, { bytes: bytes.byteLength, sha256: sha256(bytes) });
        else manifest.entries.push({ path, bytes: bytes.byteLength, sha256: sha256(bytes) });
      };
      const posts = linesOf("tables/posts.jsonl");
      const model = JSON.parse(posts[0] ?? "{}") as Record<string, unknown>;
      const unsafe =
        '<p>Hi</p><script>alert(1)</script><a href="javascript:alert(1)">x</a><img src="x" onerror="alert(1)"><p onclick="alert(1)">y</p>';
      posts.push(JSON.stringify({ ...model, id: 9001, title: "Evil", slug: "evil", content: unsafe }));
      posts.push(JSON.stringify({ ...model, id: 9002, title: "x".repeat(300), slug: "too-long" }));
      posts.push(JSON.stringify({ ...model, id: 9003, title: "Long subject", slug: "long-subject", email_subject: "x".repeat(201) }));
      reseal("tables/posts.jsonl", posts);
      reseal("tables/post_slug_redirects.jsonl", [
        ...linesOf("tables/post_slug_redirects.jsonl"),
        JSON.stringify({ old_slug: "older", post_id: 9002 }),
      ]);
      const tagModel = JSON.parse(linesOf("tables/tags.jsonl")[0] ?? "{}") as Record<string, unknown>;
      reseal("tables/tags.jsonl", [
        ...linesOf("tables/tags.jsonl"),
        JSON.stringify({ ...tagModel, id: 9101, slug: "Bad Slug", name: "Bad" }),
        JSON.stringify({ ...tagModel, id: 9102, slug: "long-name", name: "x".repeat(61) }),
      ]);
      const setting = JSON.parse(linesOf("tables/site_settings.jsonl")[0] ?? "{}") as Record<string, unknown>;
      reseal("tables/site_settings.jsonl", [
        ...linesOf("tables/site_settings.jsonl"),
        JSON.stringify({ ...setting, key: "youtube_url", value: "javascript:alert(document.cookie)" }),
      ]);
      const html = new TextEncoder().encode("<html><script>alert(1)</script></html>");
      entries.set("files/images/evil_8x4.png", html);
      manifest.entries.push({ path: "files/images/evil_8x4.png", bytes: html.byteLength, sha256: sha256(html) });
      reseal("files.jsonl", [...linesOf("files.jsonl"), JSON.stringify({ key: "images/evil_8x4.png", contentType: "image/png" })]);
      entries.set("manifest.json", new TextEncoder().encode(JSON.stringify(manifest)));

      const restored = await restore(second.app, await zipOf(entries), true);
      expect(restored.run).toMatchObject({ status: "done", error: null, report: { skippedCount: 7 } });
      expect(restored.run?.report?.skipped).toEqual(
        expect.arrayContaining([
          { entry: "files/images/evil_8x4.png", reason: expect.any(String) as string },
          { entry: "tables/posts.jsonl", row: "id=9002", reason: "title: Title must be 200 characters or less" },
          { entry: "tables/posts.jsonl", row: "id=9003", reason: "email_subject: Email subject must be 200 characters or less" },
          { entry: "tables/post_slug_redirects.jsonl", row: "old_slug=older", reason: "belongs to a posts row left out" },
          { entry: "tables/tags.jsonl", row: "id=9101", reason: "slug: Slug may contain only lowercase letters, numbers and single hyphens" },
          { entry: "tables/tags.jsonl", row: "id=9102", reason: "name: Name must be 60 characters or less" },
          { entry: "tables/site_settings.jsonl", row: "key=youtube_url", reason: "youtube_url: Please enter a full http:// or https:// URL." },
        ]),
      );
      const db = second.db.db;
      const [evil] = (await db.query<{ content: string }>("SELECT content FROM posts WHERE id = 9001")).rows;
      expect(evil?.content).toBe("<p>Hi</p><a>x</a><p>y</p>");
      expect((await db.query("SELECT 1 FROM posts WHERE id = 9002")).rows).toEqual([]);
      expect((await db.query("SELECT 1 FROM post_slug_redirects WHERE old_slug = 'older'")).rows).toEqual([]);
      expect((await db.query("SELECT 1 FROM site_settings WHERE key = 'youtube_url'")).rows).toEqual([]);
      expect(await second.app.deps.files.get("images/evil_8x4.png")).toBeNull();
      expect((await second.app.call("/api/files/images/evil_8x4.png")).status).toBe(404);
      // The rest came back as it was.
      expect((await second.app.deps.files.get("images/one_8x4.png"))?.contentType).toBe("image/png");
      expect((await db.query("SELECT 1 FROM post_slug_redirects WHERE old_slug = 'old-cafe'")).rows).toHaveLength(1);
    },
  );

  firstTargetOnly("refuses a site with content unless told to replace it", async () => {
    expect((await restore(second.app, archive, false)).status).toBe(409);
  });

  firstTargetOnly("refuses a damaged archive and changes nothing", async () => {
    const entries = await unzip(archive);
    entries.set("tables/posts.jsonl", new TextEncoder().encode(new TextDecoder().decode(entries.get("tables/posts.jsonl")).replace("Café", "Cafe")));
    const before = await contentOf(second.db);
    const tampered = await restore(second.app, await zipOf(entries), true);
    expect(tampered.run).toMatchObject({
      status: "failed",
      error: "The archive is damaged: tables/posts.jsonl does not match its checksum. Nothing was changed.",
    });
    // One byte flipped inside a stored file's bytes (files are stored as is, so its text is in the zip).
    const flipped = archive.slice();
    const at = Buffer.from(flipped).indexOf("%PDF-1.4 guide") + 10;
    expect(at).toBeGreaterThan(10);
    flipped[at] = (flipped[at] ?? 0) ^ 0xff;
    const corrupt = await restore(second.app, flipped, true);
    expect(corrupt.run?.status).toBe("failed");
    expect(await contentOf(second.db)).toEqual(before);
  });

  firstTargetOnly("answers a download link only while it is signed and unexpired", async () => {
    const [latest] = (await (await first.app.call("/api/backups", { headers: await first.app.adminHeaders() })).json()) as Backup[];
    const url = new URL(latest?.downloadUrl ?? "", "http://localhost");
    url.searchParams.set("signature", "x".repeat(43));
    expect((await owner(first.app, `${url.pathname}${url.search}`)).status).toBe(403);
    expect((await owner(first.app, url.pathname)).status).toBe(403);
    expect((await first.app.call("/api/backups", { headers: { origin: "http://localhost:8888" } })).status).toBe(401);
  });

  const withPart = (link: string, part: string) => `${link}&${new URLSearchParams({ part }).toString()}`;

  firstTargetOnly("answers a link's parts one by one (?part=n): joined in order they are the whole archive, byte for byte", async () => {
    // A file of 9 MB (random: it does not shrink) makes an archive of two 8 MB parts.
    const big = new Uint8Array(randomBytes(9 * 1024 * 1024));
    await first.app.deps.files.put("downloads/big.bin", big, { contentType: "application/octet-stream" });
    try {
      const headers = await first.app.adminHeaders();
      expect((await first.app.call("/api/backups", { method: "POST", headers })).status).toBe(202);
      const [latest] = (await (await first.app.call("/api/backups", { headers })).json()) as Backup[];
      const link = latest?.downloadUrl ?? "";
      const whole = await owner(first.app, link);
      expect(whole.status).toBe(200);
      expect(whole.headers.get("x-backup-parts")).toBe("2");
      const wholeBytes = new Uint8Array(await whole.arrayBuffer());
      expect(whole.headers.get("x-backup-bytes")).toBe(String(wholeBytes.byteLength));
      expect(latest?.bytes).toBe(wholeBytes.byteLength);
      // A HEAD tells a script the count before it fetches anything.
      const head = await owner(first.app, link, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("x-backup-parts")).toBe("2");

      const parts: Uint8Array[] = [];
      for (const part of ["1", "2"]) {
        const answer = await owner(first.app, withPart(link, part));
        expect(answer.status).toBe(200);
        expect(answer.headers.get("x-backup-parts")).toBe("2");
        expect(answer.headers.get("x-backup-bytes")).toBe(String(wholeBytes.byteLength));
        expect(answer.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="no-filter-backup-[\\d-]+\\.zip\\.00${part}"$`));
        const bytes = new Uint8Array(await answer.arrayBuffer());
        expect(answer.headers.get("content-length")).toBe(String(bytes.byteLength));
        parts.push(bytes);
      }
      expect(parts[0]?.byteLength).toBe(8 * 1024 * 1024);
      expect(sha256(new Uint8Array(Buffer.concat(parts)))).toBe(sha256(wholeBytes));

      for (const part of ["0", "3", "01", "1.5", "x", "", "99999999"]) {
        const answer = await owner(first.app, withPart(link, part));
        expect(answer.status, `part=${part}`).toBe(404);
        expect(await answer.json()).toEqual({ error: "Backup part not found" });
      }
      // A tampered or unsigned link is refused before the part is looked at.
      const tampered = new URL(withPart(link, "1"), "http://localhost");
      tampered.searchParams.set("signature", "x".repeat(43));
      expect((await owner(first.app, `${tampered.pathname}${tampered.search}`)).status).toBe(403);
      expect((await owner(first.app, `${tampered.pathname}?part=1`)).status).toBe(403);
      const forged = new URL(withPart(link, "1"), "http://localhost");
      forged.searchParams.set("expires", String(Number(forged.searchParams.get("expires")) + 1));
      expect((await owner(first.app, `${forged.pathname}${forged.search}`)).status).toBe(403);
    } finally {
      await first.app.deps.files.delete("downloads/big.bin");
    }
  });

  firstTargetOnly("answers a backup stored whole by the first version (one .zip blob) as one part", async () => {
    await first.app.deps.files.put("backups/2026-01-01-legacy.zip", archive, { contentType: "application/zip" });
    const { rows } = await first.db.db.query<{ id: number }>(
      "INSERT INTO backup_runs (kind, status, file_key, bytes, created_at) VALUES ('backup', 'done', 'backups/2026-01-01-legacy.zip', $1, $2) RETURNING id",
      [archive.byteLength, new Date()],
    );
    const id = rows[0]?.id ?? 0;
    const list = (await (await first.app.call("/api/backups", { headers: await first.app.adminHeaders() })).json()) as Backup[];
    const link = list.find((entry) => entry.id === id)?.downloadUrl ?? "";
    const whole = await owner(first.app, link);
    expect(whole.headers.get("x-backup-parts")).toBe("1");
    const one = await owner(first.app, withPart(link, "1"));
    expect(one.status).toBe(200);
    expect(one.headers.get("x-backup-parts")).toBe("1");
    expect(one.headers.get("x-backup-bytes")).toBe(String(archive.byteLength));
    expect(one.headers.get("content-disposition")).toBe('attachment; filename="no-filter-backup-2026-01-01-legacy.zip.001"');
    expect(sha256(new Uint8Array(await one.arrayBuffer()))).toBe(sha256(new Uint8Array(await whole.arrayBuffer())));
    expect(sha256(archive)).toBe(sha256(new Uint8Array(await (await owner(first.app, withPart(link, "1"))).arrayBuffer())));
    const two = await owner(first.app, withPart(link, "2"));
    expect(two.status).toBe(404);
    expect(await two.json()).toEqual({ error: "Backup part not found" });
  });

  firstTargetOnly("keeps the newest 8 backups: a backup deletes the older ones and their archives, in parts or whole", async () => {
    // A site of its own with nine finished backups, a day apart and older than the next one: the
    // oldest stored whole (the first version), the next in two parts, the rest in one.
    const { db, app } = await site();
    try {
      const day = 24 * 60 * 60 * 1000;
      const seeded = (age: number) => (age === 9 ? "backups/seeded-9.zip" : `backups/seeded-${String(age)}/`);
      const bytes = new TextEncoder().encode("an archive");
      for (let age = 9; age >= 1; age--) {
        const key = seeded(age);
        const keys = age === 9 ? [key] : age === 8 ? [`${key}part-00001`, `${key}part-00002`] : [`${key}part-00001`];
        for (const stored of keys) await app.deps.files.put(stored, bytes, { contentType: "application/zip" });
        await db.db.query("INSERT INTO backup_runs (kind, status, file_key, bytes, created_at) VALUES ('backup', 'done', $1, $2, $3)", [
          key,
          bytes.byteLength * keys.length,
          new Date(Date.now() - age * day),
        ]);
      }
      await backup(app);
      const list = (await (await app.call("/api/backups", { headers: await app.adminHeaders() })).json()) as Backup[];
      expect(list).toHaveLength(8);
      const kept: string[] = [];
      for await (const key of app.deps.files.list("backups/")) kept.push(key);
      expect(kept).toHaveLength(8);
      expect(kept.filter((key) => key.startsWith("backups/seeded-")).sort()).toEqual([1, 2, 3, 4, 5, 6, 7].map((age) => `${seeded(age)}part-00001`));
      // The weekly check starts none while the last backup is less than a week old.
      expect(await backupIfDue(app.deps)).toBeNull();
    } finally {
      await app.close();
      await db.drop();
    }
  });
});
