import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Post } from "../../../core/posts/posts.service.ts";
import { api } from "../api-client.ts";
import { queryKeys } from "../query-client.ts";
import { showErrorToast, showToast, toastTexts } from "../toasts.ts";
import PostForm from "./PostForm.tsx";
import RecentPosts from "./RecentPosts.tsx";

/** Blog Posts: the form (create, or edit the chosen post) beside the Recent Posts list. */
export default function PostsTab() {
  const queryClient = useQueryClient();
  const posts = useQuery<Post[]>({ queryKey: queryKeys.posts });
  const [editing, setEditing] = useState<Post | null>(null);
  const [formVersion, setFormVersion] = useState(0);

  const remove = useMutation({
    mutationFn: (post: Post) => api(`/api/blog-posts/${String(post.id)}`, { method: "DELETE" }),
    onSuccess: (_, post) => {
      showToast(toastTexts.postDeleted);
      if (editing?.id === post.id) setEditing(null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts });
    },
    onError: () => showErrorToast("Failed to delete blog post."),
  });

  return (
    <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <PostForm
        // A fresh form after each save or cancel: create mode, empty fields.
        key={`${String(editing?.id ?? "new")}-${String(formVersion)}`}
        editing={editing}
        onDone={() => {
          setEditing(null);
          setFormVersion((version) => version + 1);
          void queryClient.invalidateQueries({ queryKey: queryKeys.posts });
        }}
        onCancel={() => setEditing(null)}
      />
      <RecentPosts
        posts={posts.data}
        loading={posts.isPending}
        error={posts.error}
        editingId={editing?.id ?? null}
        onEdit={(post) => {
          setEditing(post);
          document.getElementById("admin-post-form")?.scrollIntoView({ block: "start" });
        }}
        onDelete={(post) => remove.mutate(post)}
      />
    </div>
  );
}
