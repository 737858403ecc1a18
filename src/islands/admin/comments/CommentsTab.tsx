import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type SubmitEvent } from "react";
import { showErrorToast, showToast } from "../toasts.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { ListState } from "../ui/ListState.tsx";
import { commentCalls, commentStatuses, commentsKey, type CommentStatus, type ModerationAction, type QueuedComment } from "./comments-calls.ts";

const statusLabels: Record<CommentStatus, string> = { held: "Waiting", approved: "Approved", hidden: "Hidden", spam: "Spam" };

/** What each action is called on a button, and what its toast says. */
const actions: { action: Exclude<ModerationAction, "delete">; label: string; done: string; not: CommentStatus }[] = [
  { action: "approve", label: "Approve", done: "approved", not: "approved" },
  { action: "hide", label: "Hide", done: "hidden", not: "hidden" },
  { action: "spam", label: "Spam", done: "marked as spam", not: "spam" },
];

const small = "btn btn-light px-2 py-1 text-xs";
const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const plural = (count: number) => (count === 1 ? "1 comment" : `${String(count)} comments`);

/** The id of the waiting count's words, which the sidebar's Comments tab is described by. */
export const commentsWaitingId = "comments-waiting";

/**
 * The waiting comments' count beside the section's name in the sidebar: the number for the eye, and
 * words as the tab's description, so its name stays "Comments".
 */
export function CommentsTabBadge() {
  const count = useQuery({ queryKey: [...commentsKey, "count"], queryFn: commentCalls.count, refetchInterval: 60_000 });
  const held = count.data?.held ?? 0;
  return (
    <>
      {held > 0 && (
        <span className="admin-badge admin-badge-on ml-2 font-sans text-xs" aria-hidden="true" data-comments-waiting>
          {held}
        </span>
      )}
      <span id={commentsWaitingId} hidden>
        {held === 0 ? "No comments waiting" : `${plural(held)} waiting`}
      </span>
    </>
  );
}

/**
 * Comments (issue 44 point 5): the moderation queue by status, a search, each comment with its
 * post and author; approve, hide, spam or delete one or many (checkboxes and the bar above the
 * list); ban or "always hold" its reader; and the owner's reply, written as the author.
 */
export default function CommentsTab() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<CommentStatus>("held");
  const [q, setQ] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [replyTo, setReplyTo] = useState<number | null>(null);
  const queue = useQuery({ queryKey: [...commentsKey, "queue", status, q, page], queryFn: () => commentCalls.queue({ status, q, page }) });
  const rows = queue.data?.comments ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: commentsKey });

  const moderate = useMutation({
    mutationFn: ({ ids, action }: { ids: number[]; action: ModerationAction }) => commentCalls.moderate(ids, action),
    onSuccess: async ({ changed }, { action }) => {
      const done = actions.find((one) => one.action === action)?.done ?? "deleted";
      showToast({ title: "Comments", description: `${plural(changed)} ${done}.` });
      setChosen(new Set());
      await refresh();
    },
    onError: (error) => showErrorToast(error.message),
  });
  const standing = useMutation({
    mutationFn: ({ readerId, action }: { readerId: number; action: "ban" | "unban" | "hold" | "unhold"; name: string }) =>
      commentCalls.reader(readerId, action),
    onSuccess: async (_, { action, name }) => {
      const words = { ban: "is banned", unban: "is no longer banned", hold: "will always be held", unhold: "is no longer always held" };
      showToast({ title: "Comments", description: `${name} ${words[action]}.` });
      await refresh();
    },
    onError: (error) => showErrorToast(error.message),
  });
  const reply = useMutation({
    mutationFn: ({ comment, body }: { comment: QueuedComment; body: string }) =>
      commentCalls.reply(comment.post.id, comment.parentId ?? comment.id, body),
    onSuccess: async () => {
      showToast({ title: "Comments", description: "Your reply is posted." });
      setReplyTo(null);
      await refresh();
    },
    onError: (error) => showErrorToast(error.message),
  });

  const choose = (id: number, on: boolean) =>
    setChosen((before) => {
      const next = new Set(before);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allChosen = rows.length > 0 && rows.every((row) => chosen.has(row.id));
  const busy = moderate.isPending;
  const ids = [...chosen];

  const filterTo = (next: CommentStatus) => {
    setStatus(next);
    setPage(1);
    setChosen(new Set());
  };
  const onSearch = (event: SubmitEvent) => {
    event.preventDefault();
    setQ(search.trim());
    setPage(1);
    setChosen(new Set());
  };

  return (
    <section aria-labelledby="comments-title" className="card p-5">
      <h2 id="comments-title" className="section-title flex items-center gap-3 text-2xl">
        Comments
        {queue.data && (
          <span className="admin-badge admin-badge-on whitespace-nowrap font-sans text-sm normal-case">
            {queue.data.held.toLocaleString("en-US")} waiting
          </span>
        )}
      </h2>
      <fieldset className="mt-4 flex flex-wrap items-center gap-2">
        <legend className="sr-only">Show comments</legend>
        {commentStatuses.map((value) => (
          <label key={value} className={`admin-filter ${status === value ? "admin-filter-on" : ""}`}>
            <input type="radio" name="comment-status" value={value} checked={status === value} onChange={() => filterTo(value)} className="sr-only" />
            {statusLabels[value]}
          </label>
        ))}
      </fieldset>
      <form role="search" className="mt-4 flex flex-wrap gap-2" onSubmit={onSearch}>
        <label htmlFor="comment-search" className="sr-only">
          Search comments
        </label>
        <input
          id="comment-search"
          type="search"
          className="admin-input admin-input-grow"
          placeholder="Search text, author, email or post"
          value={search}
          maxLength={200}
          onChange={(event) => setSearch(event.target.value)}
        />
        <button type="submit" className="btn btn-light py-2 text-sm">
          Search
        </button>
      </form>

      <div className="mt-4 flex flex-wrap items-center gap-2 border-3 border-ink bg-paper p-2" role="group" aria-label="With the chosen comments">
        <span className="mr-2 text-sm font-semibold" aria-live="polite">
          {ids.length === 0 ? "None chosen" : `${plural(ids.length)} chosen`}
        </span>
        {actions
          .filter((one) => one.not !== status)
          .map((one) => (
            <button
              key={one.action}
              type="button"
              className={small}
              disabled={ids.length === 0 || busy}
              onClick={() => moderate.mutate({ ids, action: one.action })}
            >
              {one.label} chosen
            </button>
          ))}
        <ConfirmButton
          label="Delete chosen"
          title={`Delete ${plural(ids.length)}?`}
          description="Deleted comments are gone for good, with their replies."
          confirmLabel="Delete"
          onConfirm={() => moderate.mutate({ ids, action: "delete" })}
          disabled={ids.length === 0 || busy}
          triggerClassName={small}
        >
          Delete chosen
        </ConfirmButton>
      </div>

      <ListState
        loading={queue.isPending}
        error={queue.error}
        empty={rows.length === 0}
        emptyText={q ? "No comment matches this search." : `No ${statusLabels[status].toLowerCase()} comments.`}
      />
      {rows.length > 0 && (
        <div className="mt-4 overflow-x-auto">
          <table className="admin-table" aria-label={`${statusLabels[status]} comments`}>
            <thead>
              <tr>
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label="Choose all comments on this page"
                    checked={allChosen}
                    onChange={(event) => setChosen(event.target.checked ? new Set(rows.map((row) => row.id)) : new Set())}
                  />
                </th>
                <th scope="col">Comment</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((comment) => (
                <tr key={comment.id} data-comment-row={comment.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Choose the comment by ${comment.author.name} on ${comment.post.title}`}
                      checked={chosen.has(comment.id)}
                      onChange={(event) => choose(comment.id, event.target.checked)}
                    />
                  </td>
                  <td className="min-w-72">
                    <p className="text-sm">
                      <strong>{comment.author.name}</strong>
                      {comment.author.isOwner && <span className="admin-badge ml-2">Author</span>}
                      {comment.author.email && <span className="ml-2 text-slate">{comment.author.email}</span>}
                      {comment.author.banned && <span className="admin-badge ml-2">Banned</span>}
                      {comment.author.alwaysHold && <span className="admin-badge ml-2">Always held</span>}
                    </p>
                    <p className="text-sm">
                      on{" "}
                      <a className="underline" href={`/blog/${comment.post.slug}/#comment-${String(comment.id)}`} target="_blank" rel="noopener">
                        {comment.post.title}
                      </a>
                      {" · "}
                      <time dateTime={comment.createdAt}>{dateFormat.format(new Date(comment.createdAt))}</time>
                      {comment.parentId !== null && " · a reply"}
                    </p>
                    <p className="mt-2 whitespace-pre-wrap break-words">{comment.body}</p>
                    {comment.holdReason && <p className="mt-1 text-sm text-slate">Held: {comment.holdReason}</p>}
                    {replyTo === comment.id && (
                      <ReplyForm
                        to={comment.author.name}
                        busy={reply.isPending}
                        onCancel={() => setReplyTo(null)}
                        onSend={(body) => reply.mutate({ comment, body })}
                      />
                    )}
                  </td>
                  <td>
                    <div className="flex flex-wrap gap-1">
                      {actions
                        .filter((one) => one.not !== comment.status)
                        .map((one) => (
                          <button
                            key={one.action}
                            type="button"
                            className={small}
                            disabled={busy}
                            aria-label={`${one.label} the comment by ${comment.author.name}`}
                            onClick={() => moderate.mutate({ ids: [comment.id], action: one.action })}
                          >
                            {one.label}
                          </button>
                        ))}
                      <ConfirmButton
                        label={`Delete the comment by ${comment.author.name}`}
                        title="Delete this comment?"
                        description="A deleted comment is gone for good, with its replies."
                        confirmLabel="Delete"
                        onConfirm={() => moderate.mutate({ ids: [comment.id], action: "delete" })}
                        disabled={busy}
                        triggerClassName={small}
                      >
                        Delete
                      </ConfirmButton>
                      {comment.status === "approved" && replyTo !== comment.id && (
                        <button type="button" className={small} aria-label={`Reply to ${comment.author.name}`} onClick={() => setReplyTo(comment.id)}>
                          Reply
                        </button>
                      )}
                      {comment.author.readerId !== null && (
                        <>
                          <button
                            type="button"
                            className={small}
                            disabled={standing.isPending}
                            aria-label={`${comment.author.banned ? "Unban" : "Ban"} ${comment.author.name}`}
                            onClick={() =>
                              standing.mutate({
                                readerId: comment.author.readerId ?? 0,
                                action: comment.author.banned ? "unban" : "ban",
                                name: comment.author.name,
                              })
                            }
                          >
                            {comment.author.banned ? "Unban" : "Ban"}
                          </button>
                          <button
                            type="button"
                            className={small}
                            disabled={standing.isPending}
                            aria-label={`${comment.author.alwaysHold ? "Stop always holding" : "Always hold"} ${comment.author.name}`}
                            onClick={() =>
                              standing.mutate({
                                readerId: comment.author.readerId ?? 0,
                                action: comment.author.alwaysHold ? "unhold" : "hold",
                                name: comment.author.name,
                              })
                            }
                          >
                            {comment.author.alwaysHold ? "Stop holding" : "Always hold"}
                          </button>
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {queue.data && queue.data.pages > 1 && (
        <nav className="mt-4 flex items-center gap-3" aria-label="Pages of comments">
          <button type="button" className={small} disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span className="text-sm">
            Page {page} of {queue.data.pages}
          </span>
          <button type="button" className={small} disabled={page >= queue.data.pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}

/** The owner's reply to one comment, posted as the author (approved at once). */
function ReplyForm({ to, busy, onCancel, onSend }: { to: string; busy: boolean; onCancel: () => void; onSend: (body: string) => void }) {
  const [body, setBody] = useState("");
  return (
    <form
      className="mt-3 flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (body.trim()) onSend(body);
      }}
    >
      <label className="text-sm font-semibold" htmlFor="owner-reply">
        Your reply to {to}
      </label>
      <textarea
        id="owner-reply"
        className="admin-input"
        rows={3}
        maxLength={5000}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        autoFocus
      />
      <div className="flex gap-2">
        <button type="submit" className="btn py-1 text-sm" disabled={busy || !body.trim()}>
          Post reply
        </button>
        <button type="button" className="btn btn-light py-1 text-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
