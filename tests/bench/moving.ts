/**
 * Moving in and out (issue 32): a 5,000-post WordPress export of about 100 MB, uploaded in parts as
 * the dashboard sends it and imported from them, and a
 * backup of 1,000 posts with 200 MB of files, each timed with the process's peak memory (RSS,
 * sampled every 50 ms). Runs on its own (`node tests/bench/moving.ts`, a child process of
 * `npm run bench`): the database is PostgreSQL at BENCH_POSTGRES_URL when one answers (the
 * database's memory is then not the server's, as on Netlify), else the embedded one; files go to a
 * real Blobs server on a temp folder.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createApp } from "../../src/app/create-app.ts";
import { readServerEnv } from "../../src/config/server-env.ts";
import { createPgliteExecutor } from "../../src/adapters/pglite-executor.ts";
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { applyMigrations, readMigrations } from "../../src/core/db/migrations.ts";
import type { SqlExecutor } from "../../src/core/db/sql-executor.ts";
import { writeBackup } from "../../src/core/backups/backup-archive.ts";
import { restoreArchive } from "../../src/core/backups/restore-archive.ts";
import { putParts, readParts } from "../../src/core/files/file-parts.ts";
import { runImport, startImport } from "../../src/core/imports/import-runs.ts";
import { completeUpload, putUploadPart, startUpload } from "../../src/core/imports/chunked-uploads.ts";
import { maxFileBytes } from "../../src/core/files/upload-limits.ts";
import { startTestFileStore } from "../support/test-file-store.ts";

export interface MovingFigures {
  database: string;
  wxr: { posts: number; megabytes: number; seconds: number; peakRssMb: number };
  backup: { posts: number; fileMegabytes: number; archiveMegabytes: number; seconds: number; peakRssMb: number; startRssMb: number };
  /** The same archive restored over the site (replace), from its parts in Blobs. */
  restore: { seconds: number; peakRssMb: number; startRssMb: number; rows: number; files: number };
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function peakRss(): { start: number; reset(): void; stop(): number } {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return {
    start,
    reset: () => {
      peak = process.memoryUsage().rss;
    },
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

/** A WXR file of `count` classic-editor posts, each about `bodyBytes` of text in paragraphs. */
export function syntheticWxr(count: number, bodyBytes: number): Uint8Array<ArrayBuffer> {
  const sentence = "Cash flow is a fact, profit is an opinion, and every founder learns it once. ";
  const paragraph = `${sentence.repeat(8)}\n\n`;
  const body = paragraph.repeat(Math.ceil(bodyBytes / paragraph.length));
  const items: string[] = [];
  for (let id = 1; id <= count; id++) {
    items.push(`<item><title><![CDATA[Post number ${String(id)}]]></title><link>https://old.example/${String(id)}/</link>
<wp:post_id>${String(id)}</wp:post_id><wp:post_date_gmt><![CDATA[2024-01-01 10:00:00]]></wp:post_date_gmt>
<wp:post_name><![CDATA[post-number-${String(id)}]]></wp:post_name><wp:status><![CDATA[publish]]></wp:status>
<wp:post_type><![CDATA[post]]></wp:post_type><category domain="category" nicename="funding"><![CDATA[Funding]]></category>
<content:encoded><![CDATA[${body}[gallery ids="1,2"]]]></content:encoded></item>`);
  }
  const xml = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>Old</title><link>https://old.example</link><wp:wxr_version>1.2</wp:wxr_version>${items.join("\n")}</channel></rss>`;
  return new TextEncoder().encode(xml);
}

async function database(url: string | undefined): Promise<{ db: SqlExecutor; name: string; drop(): Promise<void> }> {
  if (url) {
    const admin = new pg.Client(url);
    try {
      await admin.connect();
      const name = `nf_bench_moving_${randomBytes(4).toString("hex")}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const dbUrl = new URL(url);
      dbUrl.pathname = `/${name}`;
      const db = await connectDatabase(dbUrl.href);
      return {
        db,
        name: "PostgreSQL (pg)",
        async drop() {
          await db.close();
          await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
          await admin.end();
        },
      };
    } catch {
      await admin.end().catch(() => undefined);
    }
  }
  const db = await createPgliteExecutor();
  return { db, name: "embedded (PGlite)", drop: () => db.close() };
}

export async function measureMoving(postgresUrl: string | undefined): Promise<MovingFigures> {
  const target = await database(postgresUrl);
  const store = await startTestFileStore();
  try {
    await applyMigrations(target.db, await readMigrations());
    const env = readServerEnv({
      SITE_URL: "http://localhost:8888",
      DATABASE_URL: "postgres://unused@localhost/unused",
      ADMIN_PASSWORD: "bench password",
    });
    // Runs are started by hand below: nothing runs in the background to blur the figures.
    const { deps } = createApp({ env, db: target.db, files: store.files, startJob: () => undefined });

    // As the dashboard sends a file over 4 MB: in 4 MB parts into Blobs, then imported by its upload id (streamed part by part).
    let wxr: Uint8Array<ArrayBuffer> | null = syntheticWxr(5000, 20_000);
    const wxrBytes = wxr.byteLength;
    const { uploadId } = await startUpload(deps);
    for (let part = 1; (part - 1) * maxFileBytes < wxrBytes; part++) {
      await putUploadPart(deps, uploadId, part, wxr.slice((part - 1) * maxFileBytes, part * maxFileBytes));
    }
    await completeUpload(deps, uploadId);
    wxr = null;
    const memory = peakRss();
    const started = performance.now();
    const { id } = await startImport(deps, { source: "wordpress", uploadId, dryRun: false, siteUrl: null, consent: false });
    await runImport(deps, id);
    const wxrSeconds = (performance.now() - started) / 1000;
    const wxrPeak = memory.stop();
    const { rows } = await target.db.query<{ n: string }>("SELECT count(*) AS n FROM posts");
    if (Number(rows[0]?.n) !== 5000) throw new Error(`expected 5,000 imported posts, found ${String(rows[0]?.n)}`);

    // 1,000 posts (the first 1,000 imported stay; the rest go) and 200 MB of files: 100 files of 2 MB.
    await target.db.query("DELETE FROM posts WHERE id > (SELECT min(id) + 999 FROM posts)");
    for (let index = 0; index < 100; index++) {
      // A zip's signature first: a restore keeps a resource file only when its bytes are that kind of file.
      const bytes = Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), randomBytes(2 * 1024 * 1024 - 4)]);
      await store.files.put(`downloads/bench-${String(index)}.zip`, bytes, { contentType: "application/zip" });
    }
    const backupMemory = peakRss();
    const backupStarted = performance.now();
    // As the Background Function does: the zip streamed into Blobs in parts as it is made.
    const folder = "backups/bench/";
    const { stored } = await writeBackup(deps, (zip) => putParts(store.files, folder, zip, { contentType: "application/zip" }));
    const backupSeconds = (performance.now() - backupStarted) / 1000;
    const backupPeak = backupMemory.stop();

    // And back: the archive read from its parts to a temporary file, checked (every hash) and restored over the site.
    const restoreMemory = peakRss();
    const restoreStarted = performance.now();
    const restored = await restoreArchive(deps, readParts(store.files, folder), { replace: true });
    const restoreSeconds = (performance.now() - restoreStarted) / 1000;
    const restorePeak = restoreMemory.stop();
    if (restored.files !== 100) throw new Error(`expected 100 restored files, found ${String(restored.files)}`);
    return {
      database: target.name,
      wxr: { posts: 5000, megabytes: mb(wxrBytes), seconds: Math.round(wxrSeconds * 10) / 10, peakRssMb: mb(wxrPeak) },
      backup: {
        posts: 1000,
        fileMegabytes: 200,
        archiveMegabytes: mb(stored.bytes),
        seconds: Math.round(backupSeconds * 10) / 10,
        peakRssMb: mb(backupPeak),
        startRssMb: mb(backupMemory.start),
      },
      restore: {
        seconds: Math.round(restoreSeconds * 10) / 10,
        peakRssMb: mb(restorePeak),
        startRssMb: mb(restoreMemory.start),
        rows: restored.rows,
        files: restored.files,
      },
    };
  } finally {
    await store.stop();
    await target.drop();
  }
}

if (import.meta.main) {
  console.log(JSON.stringify(await measureMoving(process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"), null, 2));
  process.exit(0);
}
