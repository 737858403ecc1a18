import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type SubmitEvent } from "react";
import { tagsRoutes } from "../../../api/routes/tags.routes.ts";
import { tagFormSchema, type Tag, type TagFormInput } from "../../../core/posts/tag.schema.ts";
import { ApiError, callApi } from "../api-client.ts";
import { formText, validateForm } from "../form-errors.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";

/** One tag's row: its name, slug, description and topic flag, saved together; or deleted (its posts stay). */
function TagRow({ tag }: { tag: Tag }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queries.tags.queryKey });
    void queryClient.invalidateQueries({ queryKey: queries.posts.queryKey });
  };
  const save = useMutation({
    mutationFn: (body: TagFormInput) => callApi(tagsRoutes.update, { params: { slug: tag.slug }, body }),
    onSuccess: (saved) => {
      setError(null);
      showToast({ title: "Tag Updated", description: `“${saved.name}” is saved; its list is /blog/tag/${saved.slug}.` });
      refresh();
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.status < 500 && failure.status !== 401) setError(failure.message);
      showErrorToast("Failed to update the tag.");
    },
  });
  const remove = useMutation({
    mutationFn: () => callApi(tagsRoutes.remove, { params: { slug: tag.slug } }),
    onSuccess: () => {
      showToast({ title: "Tag Deleted", description: `“${tag.name}” is gone; its posts stay.` });
      refresh();
    },
    onError: () => showErrorToast("Failed to delete the tag."),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const values = {
      name: formText(data, "name"),
      slug: formText(data, "slug"),
      description: formText(data, "description"),
      topic: data.get("topic") === "on",
    };
    const checked = validateForm(tagFormSchema, values);
    if (!checked.ok) {
      setError(Object.values(checked.errors)[0] ?? "Check the tag's fields");
      return;
    }
    save.mutate(values);
  };
  const id = `admin-tag-${tag.slug}`;
  return (
    <li className="border-t-2 border-ink/20 py-3">
      <form onSubmit={submit} noValidate aria-label={`Tag ${tag.name}`} className="grid gap-2 sm:grid-cols-[1fr_1fr] sm:items-end">
        <label className="text-sm font-bold uppercase tracking-wide" htmlFor={`${id}-name`}>
          Name
          <input id={`${id}-name`} name="name" defaultValue={tag.name} className="admin-input mt-1 normal-case" />
        </label>
        <label className="text-sm font-bold uppercase tracking-wide" htmlFor={`${id}-slug`}>
          Slug
          <input
            id={`${id}-slug`}
            name="slug"
            defaultValue={tag.slug}
            autoCapitalize="none"
            spellCheck={false}
            className="admin-input mt-1 normal-case"
          />
        </label>
        <label className="text-sm font-bold uppercase tracking-wide sm:col-span-2" htmlFor={`${id}-description`}>
          Description (optional)
          <input id={`${id}-description`} name="description" defaultValue={tag.description ?? ""} className="admin-input mt-1 normal-case" />
        </label>
        <label className="flex items-center gap-2 text-sm font-semibold">
          <input type="checkbox" name="topic" defaultChecked={tag.topic} className="size-5 accent-signal-dark" />
          Readers may follow it (a topic)
        </label>
        <div className="flex items-center justify-end gap-3">
          <span className="text-sm text-slate">
            {tag.postCount} published {tag.postCount === 1 ? "post" : "posts"}
          </span>
          <button type="submit" className="btn py-2 text-sm" disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save"}
          </button>
          <ConfirmButton
            label={`Delete tag ${tag.name}`}
            title="Delete this tag?"
            description={`“${tag.name}” leaves every post that carries it; the posts themselves stay.`}
            confirmLabel="Delete Tag"
            onConfirm={() => remove.mutate()}
            disabled={remove.isPending}
            triggerClassName="btn btn-light py-2 text-sm"
          >
            Delete
          </ConfirmButton>
        </div>
        {error && (
          <p role="alert" className="text-sm font-semibold text-signal-dark sm:col-span-2">
            {error}
          </p>
        )}
      </form>
    </li>
  );
}

/**
 * The site's tags under the post form: rename (a new slug leaves the old list redirecting), describe,
 * mark as a topic, delete. New tags are made from the post form's Tags field.
 */
export default function TagsPanel() {
  const { data: tags = [], isPending } = useQuery(queries.tags);
  return (
    <section aria-labelledby="admin-tags-title" className="card mt-8 p-5">
      <h2 id="admin-tags-title" className="section-title text-2xl">
        Tags
      </h2>
      <p className="mt-2 text-sm text-slate">
        Add tags in a post&apos;s Tags field. Here: rename one (a new slug leaves its old list redirecting to the new one), describe it, or delete it
        (its posts stay).
      </p>
      {isPending ? (
        <p className="mt-4">Loading tags…</p>
      ) : tags.length === 0 ? (
        <p className="mt-4">No tags yet.</p>
      ) : (
        <ul aria-label="Tags" className="mt-4">
          {tags.map((tag) => (
            <TagRow key={`${tag.slug}-${tag.name}-${String(tag.topic)}-${tag.description ?? ""}`} tag={tag} />
          ))}
        </ul>
      )}
    </section>
  );
}
