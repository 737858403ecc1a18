import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type ComponentType } from "react";
import type { ToastMessage } from "../../public/toast.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";

/** What the form of a list-and-form tab is given. */
export interface ItemFormProps<Item> {
  /** The item being edited, or null to create one. */
  editing: Item | null;
  /** After a successful save: back to create mode. */
  onDone: () => void;
  onCancel: () => void;
}

/** What the list of a list-and-form tab is given. */
export interface ItemListProps<Item> {
  items: Item[] | undefined;
  loading: boolean;
  error: Error | null;
  editingId: number | null;
  onEdit: (item: Item) => void;
  onDelete: (item: Item) => void;
  /** For a list read a page at a time: whether more rows are there, and how to load them. */
  more?: { available: boolean; loading: boolean; load: () => void };
}

/** A list read whole (`queryFn`), or a page at a time (`queryPage`, pages from 1, `pageSize` rows each). */
export type ListQuery<Item> =
  { queryKey: string[]; queryFn: () => Promise<Item[]> } | { queryKey: string[]; queryPage: (page: number) => Promise<Item[]>; pageSize: number };

interface Props<Item extends { id: number }> {
  list: ListQuery<Item>;
  remove: (item: Item) => Promise<unknown>;
  deleted: ToastMessage;
  deleteFailed: string;
  /** The form element's id, scrolled to when an item is chosen for editing. */
  formId: string;
  Form: ComponentType<ItemFormProps<Item>>;
  List: ComponentType<ItemListProps<Item>>;
}

/**
 * A dashboard tab that keeps a list and the form beside it (posts, resources): the form creates,
 * or edits the item chosen in the list; deleting and saving refresh the list.
 */
export function ListAndForm<Item extends { id: number }>({ list, remove, deleted, deleteFailed, formId, Form, List }: Props<Item>) {
  const queryClient = useQueryClient();
  const items = useInfiniteQuery({
    queryKey: list.queryKey,
    queryFn: ({ pageParam }) => ("queryPage" in list ? list.queryPage(pageParam) : list.queryFn()),
    initialPageParam: 1,
    // A full page may have more behind it; a short one is the last.
    getNextPageParam: (last, pages) => ("queryPage" in list && last.length === list.pageSize ? pages.length + 1 : undefined),
  });
  const [editing, setEditing] = useState<Item | null>(null);
  const [formVersion, setFormVersion] = useState(0);
  // A change asks for a site build: the header's build status reads it again.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: list.queryKey });
    void queryClient.invalidateQueries({ queryKey: queries.siteBuild.queryKey });
  };

  const removal = useMutation({
    mutationFn: remove,
    onSuccess: (_, item) => {
      showToast(deleted);
      if (editing?.id === item.id) setEditing(null);
      refresh();
    },
    onError: () => showErrorToast(deleteFailed),
  });

  return (
    <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <Form
        // A fresh form after each save or cancel: create mode, empty fields.
        key={`${String(editing?.id ?? "new")}-${String(formVersion)}`}
        editing={editing}
        onDone={() => {
          setEditing(null);
          setFormVersion((version) => version + 1);
          refresh();
        }}
        onCancel={() => setEditing(null)}
      />
      <List
        items={items.data?.pages.flat()}
        loading={items.isPending}
        error={items.error}
        editingId={editing?.id ?? null}
        onEdit={(item) => {
          setEditing(item);
          document.getElementById(formId)?.scrollIntoView({ block: "start" });
        }}
        onDelete={(item) => removal.mutate(item)}
        more={{ available: items.hasNextPage, loading: items.isFetchingNextPage, load: () => void items.fetchNextPage() }}
      />
    </div>
  );
}
