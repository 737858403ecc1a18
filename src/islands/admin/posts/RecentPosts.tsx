import { useContext, useState } from "react";
import type { Post } from "../../../core/posts/post.schema.ts";
import { formatLongDate, readTimeLabel } from "../../../lib/format-date.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { Icon } from "../ui/icons.tsx";
import type { ItemListProps } from "../ui/ListAndForm.tsx";
import { ListState } from "../ui/ListState.tsx";
import { formatScheduledTime } from "./local-date-time.ts";
import { SendAsNewsletterContext } from "./NewsletterPanel.tsx";
import SharePreview from "./SharePreview.tsx";
import { postStatsHash } from "../stats/stats-range.ts";

const fediverseReactions = (post: Post) => post.fediverse.likes + post.fediverse.boosts + post.fediverse.replies;
const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
/** A published post's reactions from the fediverse (issue 45 point 5), when it has any. */
const fediverseLine = ({ fediverse }: Post) =>
  `Fediverse: ${plural(fediverse.likes, "like", "likes")}, ${plural(fediverse.boosts, "boost", "boosts")}, ${plural(fediverse.replies, "reply", "replies")}`;

/** Every post, drafts included, newest first; scrolls on its own when long. */
export default function RecentPosts({ items: posts, loading, error, editingId, onEdit, onDelete, more }: ItemListProps<Post>) {
  const sendAsNewsletter = useContext(SendAsNewsletterContext);
  const [sharing, setSharing] = useState<number | null>(null);
  return (
    <section aria-labelledby="recent-posts-title" className="card p-5">
      <h2 id="recent-posts-title" className="section-title text-2xl">
        Recent Posts
      </h2>
      <ListState loading={loading} error={error} empty={posts?.length === 0} emptyText="No posts yet. Create your first post!" />
      {posts && posts.length > 0 && (
        <ul className="admin-scroll mt-4 space-y-3" aria-label="Posts" tabIndex={0}>
          {posts.map((post) => (
            <li key={post.id} className={`border-3 border-ink p-3 ${editingId === post.id ? "bg-amber/20" : "bg-white"}`}>
              <div className="flex items-start justify-between gap-3">
                <h3 className="min-w-0 break-words font-bold leading-snug">{post.title}</h3>
                <div className="flex shrink-0 gap-2">
                  {post.published && sendAsNewsletter && (
                    <button
                      type="button"
                      className="admin-icon-button"
                      aria-label={`Send ${post.title} as newsletter`}
                      title="Send as newsletter"
                      onClick={() => sendAsNewsletter(post)}
                    >
                      <Icon name="send" />
                    </button>
                  )}
                  <button type="button" className="admin-icon-button" aria-label={`Edit ${post.title}`} title="Edit" onClick={() => onEdit(post)}>
                    <Icon name="edit" />
                  </button>
                  <ConfirmButton
                    label={`Delete ${post.title}`}
                    title="Delete this post?"
                    description={`“${post.title}” will be removed from the site. This cannot be undone.`}
                    confirmLabel="Delete Post"
                    onConfirm={() => onDelete(post)}
                  >
                    <Icon name="trash" />
                  </ConfirmButton>
                </div>
              </div>
              <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                <span className={post.published ? "admin-badge admin-badge-on" : "admin-badge"}>
                  {post.published ? "Published" : post.publishAt ? "Scheduled" : "Draft"}
                </span>
                {post.featuredImage && post.featuredImageAlt === null && <span className="admin-badge">No alt text yet</span>}
                <span>
                  {post.publishedAt
                    ? formatLongDate(post.publishedAt)
                    : post.publishAt
                      ? `Scheduled for ${formatScheduledTime(post.publishAt)}`
                      : "Not published"}
                </span>
                <span>{readTimeLabel(post.readTime)}</span>
                {post.sendAsNewsletter && !post.published && <span data-send-on-publish>Emailed to subscribers when published</span>}
                {!post.published && (
                  <button
                    type="button"
                    className="font-bold underline"
                    aria-expanded={sharing === post.id}
                    aria-label={`Share preview of ${post.title}`}
                    onClick={() => setSharing(sharing === post.id ? null : post.id)}
                  >
                    Share preview
                  </button>
                )}
                {post.published && (
                  <a href={post.url} target="_blank" rel="noopener" className="font-semibold underline" aria-label={`View ${post.title}`}>
                    View post
                  </a>
                )}
                {post.published && fediverseReactions(post) > 0 && (
                  <span data-fediverse-counts title="From the fediverse">
                    {fediverseLine(post)}
                  </span>
                )}
                {post.published && (
                  <a href={postStatsHash(post.slug)} className="font-semibold underline" aria-label={`Stats for ${post.title}`}>
                    Stats
                  </a>
                )}
              </p>
              {!post.published && sharing === post.id && <SharePreview post={post} />}
            </li>
          ))}
          {more?.available && (
            <li>
              <button type="button" className="btn btn-light w-full justify-center py-2 text-sm" disabled={more.loading} onClick={more.load}>
                {more.loading ? "Loading..." : "Show more posts"}
              </button>
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
