import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type SubmitEvent } from "react";
import { newsletterRoutes } from "../../../api/routes/newsletter.routes.ts";
import type { SubscriberStatus } from "../../../core/subscribers/subscriber.schema.ts";
import { callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showToast } from "../toasts.ts";

/** The list's filter beyond the status: a topic, a subscriber tag, part of the address. */
export interface ListFilter {
  topic?: string;
  tag?: string;
  q?: string;
}

const field = (data: FormData, name: string) => {
  const value = data.get(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
};

/** Topic, tag and search for the list; applied with one button (a search per key press would hit the server for nothing). */
export function SubscriberFilters({ value, onChange }: { value: ListFilter; onChange: (filter: ListFilter) => void }) {
  const id = useId();
  const tags = useQuery(queries.tags);
  const topics = (tags.data ?? []).filter((tag) => tag.topic);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const topic = field(data, "topic");
    const tag = field(data, "tag");
    const q = field(data, "q");
    onChange({ ...(topic && { topic }), ...(tag && { tag: tag.toLowerCase() }), ...(q && { q }) });
  };
  return (
    <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-3 text-sm" aria-label="Filter subscribers">
      <label htmlFor={`${id}-topic`} className="font-semibold">
        Topic
        <select id={`${id}-topic`} name="topic" defaultValue={value.topic ?? ""} className="admin-input mt-1 block">
          <option value="">Any</option>
          {topics.map((topic) => (
            <option key={topic.slug} value={topic.slug}>
              {topic.name}
            </option>
          ))}
        </select>
      </label>
      <label htmlFor={`${id}-tag`} className="font-semibold">
        Tag
        <input id={`${id}-tag`} name="tag" defaultValue={value.tag ?? ""} placeholder="vip" className="admin-input mt-1 block" />
      </label>
      <label htmlFor={`${id}-q`} className="font-semibold">
        Address contains
        <input id={`${id}-q`} name="q" type="search" defaultValue={value.q ?? ""} className="admin-input mt-1 block" />
      </label>
      <button type="submit" className="btn btn-light py-2 text-sm">
        Filter
      </button>
    </form>
  );
}

const tagListOf = (text: string) =>
  text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");

/** Adds or removes tags on everyone the filtered list holds (every page, not only those shown). */
export function BulkTags({ filter, listed }: { filter: ListFilter & { status?: SubscriberStatus }; listed: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (input: { add: string[]; remove: string[] }) =>
      callApi(newsletterRoutes.tags, { body: { filter, add: input.add, remove: input.remove } }),
    onSuccess: async (answer, input) => {
      setError(null);
      showToast({
        title: "Tags Changed",
        description: `${[input.add.length > 0 && `Added ${input.add.join(", ")}`, input.remove.length > 0 && `removed ${input.remove.join(", ")}`]
          .filter(Boolean)
          .join("; ")} for ${answer.changed.toLocaleString("en-US")} ${answer.changed === 1 ? "person" : "people"}.`,
      });
      await queryClient.invalidateQueries({ queryKey: queries.subscribers.queryKey });
    },
    onError: (failure) => setError(failure.message),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const add = tagListOf(field(data, "add") ?? "");
    const remove = tagListOf(field(data, "remove") ?? "");
    if (add.length + remove.length === 0) return setError("Give a tag to add or to remove.");
    change.mutate({ add, remove });
  };
  return (
    <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-3 border-3 border-ink bg-paper p-3 text-sm" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`} className="basis-full font-bold">
        Tag everyone listed ({listed})
      </p>
      <label htmlFor={`${id}-add`} className="font-semibold">
        Add tags
        <input id={`${id}-add`} name="add" placeholder="vip, cohort-1" className="admin-input mt-1 block" />
      </label>
      <label htmlFor={`${id}-remove`} className="font-semibold">
        Remove tags
        <input id={`${id}-remove`} name="remove" className="admin-input mt-1 block" />
      </label>
      <button type="submit" className="btn py-2 text-sm" disabled={change.isPending}>
        {change.isPending ? "Applying..." : "Apply"}
      </button>
      {error && (
        <p role="alert" className="basis-full font-semibold text-signal-dark">
          {error}
        </p>
      )}
    </form>
  );
}
