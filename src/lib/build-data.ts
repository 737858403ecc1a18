import { appDeps } from "../core/app-deps.ts";
import { listDownloads, type PublicDownload } from "../core/downloads/downloads.service.ts";
import { getPost, listPosts, type Post } from "../core/posts/posts.service.ts";
import type { SettingKey } from "../core/settings/settings.schema.ts";
import { siteSettingValues } from "../core/settings/settings.service.ts";

// Pages read data only here, when the site is built; a content change triggers a rebuild.

export type SiteSettings = Record<SettingKey, string>;

/** Site settings for pages, read from the database when the site is built. */
export async function loadSiteSettings(): Promise<SiteSettings> {
  return siteSettingValues(await appDeps());
}

/** Published posts, newest first. */
export async function loadPublishedPosts(): Promise<Post[]> {
  return listPosts(await appDeps(), { publishedOnly: true });
}

/** One published post (throws NotFoundError for a draft or a missing id). */
export async function loadPost(id: number): Promise<Post> {
  return getPost(await appDeps(), id, { includeDrafts: false });
}

/** Downloadable resources, newest first, as the public page sees them. */
export async function loadDownloads(): Promise<PublicDownload[]> {
  return listDownloads(await appDeps());
}
