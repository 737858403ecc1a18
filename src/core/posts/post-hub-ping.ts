import type { SqlQueryable } from "../db/sql-executor.ts";
import { queueHubPing } from "../publishing/websub.ts";
import type { Clock } from "../shared/clock.ts";
import type { PostCategory } from "./post.schema.ts";
import { postPath, slugFromTitle } from "./post-slug-rules.ts";
import { postTagSlugs } from "./post-tags.ts";

/**
 * The feed folders a post is in (src/lib/site-feeds.ts): the site's, its category's and each of its
 * tags'. Read in the caller's transaction, before a change for where it was, after it for where it is.
 */
export async function postFeedFolders(db: SqlQueryable, id: number, category: PostCategory | null): Promise<string[]> {
  const tags = (await postTagSlugs(db, [id])).get(id) ?? [];
  return ["/", ...(category ? [`/blog/category/${slugFromTitle(category)}/`] : []), ...tags.map((slug) => `/blog/tag/${slug}/`)];
}

/**
 * A published post changed (published, updated, live on its schedule, unpublished, deleted): the
 * WebSub ping for its feeds, in the change's transaction, sent once the page shows the change
 * (src/core/publishing/websub.ts). `before`: the folders it was in, for a post that moved or left.
 */
export async function queuePostHubPing(
  tx: SqlQueryable,
  deps: { now: Clock["now"] },
  post: { id: number; slug: string; published: boolean; updated_at: Date | string | null; category: PostCategory | null },
  before: readonly string[] = [],
): Promise<void> {
  const after = post.published ? await postFeedFolders(tx, post.id, post.category) : [];
  await queueHubPing(tx, deps, {
    postId: post.id,
    pagePath: postPath(post.slug),
    expect: post.published ? "live" : "gone",
    modifiedAt: post.published && post.updated_at !== null ? new Date(post.updated_at) : null,
    feedFolders: [...new Set(["/", ...after, ...before])],
  });
  // The same change for the fediverse's followers (issue 45 point 3): a Create, Update or Delete
  // queued once the page shows it (src/core/fediverse/fediverse-changes.ts). A change still waiting is replaced.
  await tx.query(
    "UPDATE fediverse_changes SET status = 'skipped', last_error = 'replaced by a later change' WHERE post_id = $1 AND status = 'waiting'",
    [post.id],
  );
  await tx.query("INSERT INTO fediverse_changes (post_id, page_path, expect, modified_at, created_at) VALUES ($1, $2, $3, $4, $5)", [
    post.id,
    postPath(post.slug),
    post.published ? "live" : "gone",
    post.published && post.updated_at !== null ? new Date(post.updated_at) : null,
    deps.now(),
  ]);
}
