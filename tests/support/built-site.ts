/**
 * Real site builds in tests: a scratch PostgreSQL database to build from (a build reads its data over
 * DATABASE_URL, which the embedded test database has not) and a built site's files to compare.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { seedPublishedPosts } from "../bench/bulk-seed.ts";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

export async function query(url: string, sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, values);
  } finally {
    await client.end();
  }
}

// What vitest sets to mirror `import.meta.env`: a build's pages would take them for their own (Astro reads
// `import.meta.env` from the process at run time) and render as under `astro dev`, each page reading its data anew.
const vitestEnv = new Set(["DEV", "PROD", "MODE", "SSR", "BASE_URL", "NODE_ENV"]);

/** The environment of a real site build from a test: the test's, less vitest's `import.meta.env` mirror, and `extra`. */
export function siteBuildEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !vitestEnv.has(name))), ...extra };
}

/** Every file under `dir`, as paths relative to it, sorted. */
export async function filesOf(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Every file of a site but the search indexes and the sitemap index (whose `<lastmod>` is the build's time). */
export async function siteFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of await filesOf(dir)) {
    if (file.startsWith("pagefind") || file === "sitemap-index.xml") continue;
    files.set(file, (await readFile(path.join(dir, file))).toString("base64"));
  }
  return files;
}

/** The post with this id's slug. */
export async function slugOf(url: string, id: number): Promise<string> {
  return ((await query(url, "SELECT slug FROM posts WHERE id = $1", [id])).rows[0] as { slug: string }).slug;
}

/**
 * A fresh database on the server at `adminUrl`, migrated, with `posts` published posts and the tag
 * `runway` on every fourth; `drop` removes it.
 */
export async function createSiteDatabase(adminUrl: string, posts: number): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `nf_site_build_test_${randomBytes(4).toString("hex")}`;
  await query(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = () => query(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined);
  try {
    const migrated = spawnSync(process.execPath, ["netlify/database/migrate.ts"], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: url.href },
    });
    if (migrated.status !== 0) throw new Error(`migrations failed: ${migrated.stderr.toString()}`);
    await seedPublishedPosts(url.href, posts);
    await query(url.href, "INSERT INTO tags (slug, name) VALUES ('runway', 'Runway')");
    await query(url.href, "INSERT INTO post_tags (post_id, tag_id) SELECT p.id, t.id FROM posts p, tags t WHERE p.id % 4 = 0 AND t.slug = 'runway'");
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: url.href, drop };
}
