import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { previewLinksRoutes } from "../../../api/routes/preview-links.routes.ts";
import type { Post } from "../../../core/posts/post.schema.ts";
import { previewLinkHours, previewLinkLifetimes, type PreviewLink } from "../../../core/posts/preview-link.schema.ts";
import { callApi } from "../api-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";

const routes = previewLinksRoutes;
const linksKey = (postId: number) => [routes.list.path, postId];
const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const viewsLabel = (views: number) => `${String(views)} ${views === 1 ? "view" : "views"}`;

/**
 * "Share preview" for a draft or scheduled post: a signed link to the post as it will look, for
 * a chosen time (1 hour to 30 days, 7 days first); every link with its expiry and views; revoke.
 */
export default function SharePreview({ post }: { post: Post }) {
  const queryClient = useQueryClient();
  const lifetimeId = useId();
  const [hours, setHours] = useState<number>(previewLinkHours.default);
  const links = useQuery({
    queryKey: linksKey(post.id),
    queryFn: () => callApi(routes.list, { params: { id: post.id } }),
  });
  const create = useMutation({
    mutationFn: () => callApi(routes.create, { params: { id: post.id }, body: { expiresInHours: hours } }),
    onSuccess: async (link) => {
      await queryClient.invalidateQueries({ queryKey: linksKey(post.id) });
      await copy(link.url, "Preview Link Created");
    },
    onError: (error) => showErrorToast(error.message),
  });
  const revoke = useMutation({
    mutationFn: (link: PreviewLink) => callApi(routes.remove, { params: { id: link.id } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: linksKey(post.id) });
      showToast({ title: "Preview Link Revoked", description: "Whoever has it now sees “Preview Unavailable”." });
    },
    onError: (error) => showErrorToast(error.message),
  });

  return (
    <section aria-label={`Share a preview of ${post.title}`} className="mt-3 border-t-3 border-ink pt-3">
      <div className="flex flex-wrap items-end gap-2">
        <label htmlFor={lifetimeId} className="text-sm font-bold">
          Link works for
          <select id={lifetimeId} className="admin-input mt-1 block" value={hours} onChange={(event) => setHours(Number(event.target.value))}>
            {previewLinkLifetimes.map((lifetime) => (
              <option key={lifetime.hours} value={lifetime.hours}>
                {lifetime.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn py-2 text-sm" disabled={create.isPending} onClick={() => create.mutate()}>
          {create.isPending ? "Creating..." : "Create Preview Link"}
        </button>
      </div>
      {links.data && links.data.length > 0 && (
        <ul className="mt-3 space-y-2" aria-label="Preview links">
          {links.data.map((link) => {
            const expired = new Date(link.expiresAt).getTime() <= Date.now();
            return (
              <li key={link.id} className="border-2 border-ink bg-paper p-2 text-sm">
                <input
                  className="admin-input w-full font-mono text-xs"
                  readOnly
                  value={link.url}
                  aria-label="Preview link"
                  onFocus={(event) => event.target.select()}
                />
                <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
                  <span>
                    {expired ? `Expired ${dateTime.format(new Date(link.expiresAt))}` : `Expires ${dateTime.format(new Date(link.expiresAt))}`}
                  </span>
                  <span>{viewsLabel(link.views)}</span>
                  {!expired && (
                    <button type="button" className="underline" onClick={() => void copy(link.url, "Link Copied")}>
                      Copy
                    </button>
                  )}
                  <ConfirmButton
                    label={`Revoke the link that expires ${dateTime.format(new Date(link.expiresAt))}`}
                    title="Revoke this preview link?"
                    description="Whoever has the link will see “Preview Unavailable” from now on."
                    confirmLabel="Revoke Link"
                    triggerClassName="underline"
                    onConfirm={() => revoke.mutate(link)}
                  >
                    Revoke
                  </ConfirmButton>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

async function copy(url: string, title: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    showToast({ title, description: "The preview link is on your clipboard." });
  } catch {
    showToast({ title, description: url });
  }
}
