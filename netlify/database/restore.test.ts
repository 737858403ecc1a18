import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { BlobsServer } from "@netlify/blobs/server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobsFileStore } from "../../src/adapters/blobs-file-store.ts";
import { nodeArchives } from "../../src/adapters/node-archives.ts";
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { writeBackup, type Manifest } from "../../src/core/backups/backup-archive.ts";
import { damagedMessage, siteHasContentMessage } from "../../src/core/backups/restore-archive.ts";
import type { FileStore } from "../../src/core/files/file-store.ts";
import { createTestApp, type TestApp } from "../../tests/support/test-app.ts";
import { databaseTargets } from "../../tests/support/test-databases.ts";
import { startDatabaseThread } from "../local/threaded-database.ts";

/**
 * `npm run restore -- <file> [--replace]` run for real: the CLI in a process of its own, against an
 * empty site (the embedded database `npm start` runs, and PostgreSQL when TEST_DATABASE_URL is set)
 * and a real Blobs server, from an archive a site made in this test.
 */
const script = fileURLToPath(new URL("restore.ts", import.meta.url));
const serverUrl = process.env.TEST_DATABASE_URL;

interface Target {
  name: string;
  /** A fresh, empty database (no migrations: the CLI runs them) and the variables that point the CLI at it. */
  start(): Promise<{ url: string; env: Record<string, string>; stop(): Promise<void> }>;
}

const targets: Target[] = [
  {
    name: "the embedded database (npm start's)",
    async start() {
      // Started as `npm start` starts it: on a thread of its own, with its fixes (Nagle off on its sockets).
      const directory = await mkdtemp(path.join(tmpdir(), "nf-restore-cli-db-"));
      const database = await startDatabaseThread({ directory });
      const env = { NETLIFY_DB_URL: database.url, NETLIFY_DB_DRIVER: "server" };
      return { url: database.url, env, stop: () => database.stop().finally(() => rm(directory, { recursive: true, force: true })) };
    },
  },
  ...(serverUrl
    ? [
        {
          name: "PostgreSQL",
          async start() {
            const created = await (databaseTargets.find((target) => target.driver === "pg") ?? databaseTargets[0])!.create();
            const url = created.url ?? "";
            await created.db.close();
            return { url, env: { DATABASE_URL: url }, stop: () => created.drop().catch(() => undefined) };
          },
        },
      ]
    : []),
];

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

let source: TestApp;
let folder: string;
let archive: string;
let damaged: string;
let manifest: Manifest;

beforeAll(async () => {
  source = await createTestApp();
  const { db, files } = source.deps;
  // A real image: a restore checks every file by its bytes, as an upload is checked.
  const png = await sharp({ create: { width: 4, height: 2, channels: 3, background: "#345" } })
    .png()
    .toBuffer();
  await files.put("images/cover_4x2.png", new Uint8Array(png), { contentType: "image/png", fileName: "cover.png" });
  await files.put("downloads/plan.pdf", new TextEncoder().encode("%PDF-1.4 the business plan"), {
    contentType: "application/pdf",
    fileName: "Plan é.pdf",
  });
  await db.query(
    `INSERT INTO posts (title, content, slug, published, published_at, featured_image_key) VALUES
     ('Über cash flow', '<p>Hi <img src="/api/files/images/cover_4x2.png" alt="" /></p>', 'uber-cash-flow', true, '2024-03-01T09:00:00Z', 'images/cover_4x2.png'),
     ('A draft', '<p>Later</p>', 'a-draft', false, NULL, NULL)`,
  );
  await db.query("INSERT INTO subscribers (email, source) VALUES ('reader@example.com', 'newsletter')");
  folder = await mkdtemp(path.join(tmpdir(), "nf-restore-cli-"));
  archive = path.join(folder, "backup.zip");
  ({ manifest } = await writeBackup(source.deps, async (zip) => pipeline(Readable.from(zip), createWriteStream(archive))));
  // One byte flipped inside a stored file (files are stored as they are, so its text is in the zip).
  const bytes = await readFile(archive);
  const at = bytes.indexOf("%PDF-1.4 the business plan") + 12;
  expect(at).toBeGreaterThan(12);
  bytes[at] = (bytes[at] ?? 0) ^ 0xff;
  damaged = path.join(folder, "damaged.zip");
  await writeFile(damaged, bytes);
});

afterAll(async () => {
  await source.close();
  await rm(folder, { recursive: true, force: true });
});

describe.each(targets)("npm run restore on $name", (target) => {
  let database: Awaited<ReturnType<Target["start"]>>;
  let blobs: BlobsServer;
  let blobsDir: string;
  let files: FileStore;
  let context: string;
  let hook: { url: string; calls: number; close(): Promise<void> };

  beforeAll(async () => {
    database = await target.start();
    blobsDir = await mkdtemp(path.join(tmpdir(), "nf-restore-cli-blobs-"));
    const token = "cli-test-token";
    blobs = new BlobsServer({ directory: blobsDir, token });
    const { port } = await blobs.start();
    const edgeURL = `http://localhost:${String(port)}`;
    files = blobsFileStore({ siteID: "cli-site", token, edgeURL });
    context = Buffer.from(
      JSON.stringify({ edgeURL, uncachedEdgeURL: edgeURL, siteID: "cli-site", token, deployID: "0", primaryRegion: "us-east-2" }),
    ).toString("base64");
    let calls = 0;
    const server = createServer((request, response) => {
      calls += 1;
      request.resume();
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    hook = {
      url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/hook`,
      get calls() {
        return calls;
      },
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  });
  afterAll(async () => {
    await hook.close();
    await blobs.stop();
    await rm(blobsDir, { recursive: true, force: true });
    await database.stop();
  });

  function cli(...args: string[]): Promise<CliResult> {
    const env = {
      PATH: process.env.PATH ?? "",
      SITE_URL: "http://localhost:8888",
      ADMIN_PASSWORD: "cli test password",
      BUILD_HOOK_URL: hook.url,
      NETLIFY_BLOBS_CONTEXT: context,
      ...database.env,
    };
    return new Promise((resolve) => {
      execFile(process.execPath, [script, ...args], { env, timeout: 120_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  /** The target site, opened only while no CLI runs (the embedded database serves one session). */
  async function inspect<T>(read: (db: Awaited<ReturnType<typeof connectDatabase>>) => Promise<T>): Promise<T> {
    const db = await connectDatabase(database.url, { maxConnections: 1, preparedStatements: true });
    try {
      return await read(db);
    } finally {
      await db.close();
    }
  }

  const posts = (db: Awaited<ReturnType<typeof connectDatabase>>) =>
    db.query("SELECT id, title, content, slug, published, published_at FROM posts ORDER BY id").then((result) => result.rows);

  async function storedKeys(): Promise<string[]> {
    const keys: string[] = [];
    for (const prefix of ["images/", "downloads/"]) for await (const key of files.list(prefix)) keys.push(key);
    return keys.sort();
  }

  it("refuses a damaged archive and changes nothing (the migrations aside)", async () => {
    const result = await cli(damaged);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(damagedMessage("files/downloads/plan.pdf"));
    expect(await inspect(posts)).toEqual([]);
    expect(await storedKeys()).toEqual([]);
    expect(hook.calls).toBe(0);
  });

  it("restores into the empty site, migrations first, and a backup of it has the same content hashes", async () => {
    const result = await cli(archive);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Restored \d+ rows in \d+ tables and 2 files from /);
    expect(await inspect(posts)).toEqual(await posts(source.deps.db));
    expect(await storedKeys()).toEqual(["downloads/plan.pdf", "images/cover_4x2.png"]);
    expect((await files.get("downloads/plan.pdf"))?.fileName).toBe("Plan é.pdf");
    expect(hook.calls).toBe(1);
    const again = await inspect((db) =>
      writeBackup({ db, files, now: () => new Date(), archives: nodeArchives }, async (zip) => {
        for await (const chunk of zip) void chunk;
      }),
    );
    expect(again.manifest.entries).toEqual(manifest.entries);
  });

  it("refuses a site with content without --replace, and replaces it with --replace", async () => {
    const refused = await cli(archive);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(siteHasContentMessage);

    await inspect((db) => db.query("UPDATE posts SET title = 'Changed since' WHERE slug = 'a-draft'"));
    await files.put("images/extra_1x1.png", new Uint8Array([1]), { contentType: "image/png" });
    const replaced = await cli(archive, "--replace");
    expect(replaced.code).toBe(0);
    expect(await inspect(posts)).toEqual(await posts(source.deps.db));
    expect(await storedKeys()).toEqual(["downloads/plan.pdf", "images/cover_4x2.png"]);
  });

  it("says how it is used without a file", async () => {
    const result = await cli();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: npm run restore -- <backup.zip> [--replace]");
  });
});
