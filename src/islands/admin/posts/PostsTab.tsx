import { useState } from "react";
import { blogPostsRoutes } from "../../../api/routes/blog-posts.routes.ts";
import type { Post } from "../../../core/posts/post.schema.ts";
import { callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { toastTexts } from "../toasts.ts";
import { ListAndForm } from "../ui/ListAndForm.tsx";
import NewsletterPanel, { SendAsNewsletterContext } from "./NewsletterPanel.tsx";
import PostForm from "./PostForm.tsx";
import RecentPosts from "./RecentPosts.tsx";
import TagsPanel from "./TagsPanel.tsx";

/**
 * Blog Posts: the form (create, or edit the chosen post) beside the Recent Posts list; under them,
 * "Send as newsletter" for the published post chosen in the list; then the site's tags.
 */
export default function PostsTab() {
  const [newsletterPost, setNewsletterPost] = useState<Post | null>(null);
  return (
    <SendAsNewsletterContext.Provider value={setNewsletterPost}>
      <ListAndForm<Post>
        list={queries.posts}
        remove={(post) => callApi(blogPostsRoutes.remove, { params: { id: post.id } })}
        deleted={toastTexts.postDeleted}
        deleteFailed="Failed to delete blog post."
        formId="admin-post-form"
        Form={PostForm}
        List={RecentPosts}
      />
      {newsletterPost && <NewsletterPanel key={newsletterPost.id} post={newsletterPost} onClose={() => setNewsletterPost(null)} />}
      <TagsPanel />
    </SendAsNewsletterContext.Provider>
  );
}
