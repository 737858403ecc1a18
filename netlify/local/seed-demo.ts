import { randomUUID } from "node:crypto";
import path from "node:path";
import type { SqlExecutor } from "../../src/core/db/sql-executor.ts";
import type { FileStore } from "../../src/core/files/file-store.ts";
import { insertPostRow } from "../../src/core/posts/post-rows.ts";
import { checkAndCleanImage, newImageKey } from "../../src/core/files/image-cleaning.ts";
import { slugFromTitle } from "../../src/core/posts/post-slug-rules.ts";
import { seedDefaultSettings } from "../../src/core/settings/settings.service.ts";
import { demoPosts, demoResources, readDemoFile, type DemoPost, type DemoResource } from "./demo-content/index.ts";

export interface SeedDeps {
  db: SqlExecutor;
  files: FileStore;
  now: () => Date;
}

const day = 24 * 60 * 60 * 1000;

/** True when there is no content at all: no posts, no resources and no settings. */
async function isEmpty(db: SqlExecutor): Promise<boolean> {
  const { rows } = await db.query<{ empty: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM posts) AND NOT EXISTS (SELECT 1 FROM downloads)
        AND NOT EXISTS (SELECT 1 FROM site_settings) AS empty`,
  );
  return rows[0]?.empty === true;
}

/**
 * Fills an empty database with the demo site: published posts and a draft, four resources with
 * real files, and the settings at their defaults. Files are stored first; if the rows then fail,
 * the files are removed again, so nothing is left half-seeded.
 */
export async function seedDemoContent(deps: SeedDeps): Promise<boolean> {
  if (!(await isEmpty(deps.db))) return false;
  const stored: string[] = [];
  const store = async (key: string, data: Uint8Array, contentType: string, name: string): Promise<{ key: string; size: number }> => {
    await deps.files.put(key, data, { contentType, fileName: name });
    stored.push(key);
    return { key, size: data.byteLength };
  };
  const storeFile = async (name: string, contentType: string): Promise<{ key: string; size: number }> =>
    store(`downloads/${randomUUID()}${path.extname(name)}`, await readDemoFile(name), contentType, name);
  // Stored as an upload is, its size in its name: the pages set the image's width and height from
  // it, so a cover holds its place while it loads (docs/decisions/0048-post-cover-holds-its-place.md).
  const storeImage = async (name: string): Promise<{ key: string; size: number }> => {
    const image = await checkAndCleanImage(new File([await readDemoFile(name)], name));
    return store(newImageKey(image), image.bytes, image.contentType, name);
  };
  try {
    // One file at a time: when one fails, every file stored so far is known and can be removed.
    type Stored = Awaited<ReturnType<typeof store>>;
    const posts: { post: DemoPost; image: Stored }[] = [];
    for (const post of demoPosts) posts.push({ post, image: await storeImage(post.cover) });
    const resources: { resource: DemoResource; file: Stored; thumbnail: Stored }[] = [];
    for (const resource of demoResources) {
      resources.push({
        resource,
        file: await storeFile(resource.fileName, resource.contentType),
        thumbnail: await storeImage(resource.thumbnail),
      });
    }
    const now = deps.now().getTime();
    await deps.db.transaction(async (tx) => {
      for (const { post, image } of posts) {
        const at = new Date(now - post.daysAgo * day);
        await insertPostRow(tx, {
          title: post.title,
          content: post.content,
          excerpt: post.excerpt,
          category: post.category,
          readTime: post.readTime,
          published: post.published,
          publishedAt: post.published ? at : null,
          publishAt: null,
          featuredImageKey: image.key,
          featuredImageAlt: post.coverAlt,
          createdAt: at,
          slug: slugFromTitle(post.title),
          demo: true,
        });
      }
      for (const { resource, file, thumbnail } of resources) {
        await tx.query(
          `INSERT INTO downloads (title, description, category, file_name, file_key, file_type, file_size, thumbnail_key, download_count, demo, thumbnail_alt)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, true, $10)`,
          [
            resource.title,
            resource.description,
            resource.category,
            resource.fileName,
            file.key,
            resource.contentType,
            file.size,
            thumbnail.key,
            resource.downloadCount,
            resource.thumbnailAlt,
          ],
        );
      }
      await seedDefaultSettings({ db: tx });
    });
    return true;
  } catch (error) {
    await Promise.allSettled(stored.map((key) => deps.files.delete(key)));
    throw error;
  }
}
