/**
 * The moderation queue's calls (issue 44 point 5). Plain `fetch` with the dashboard's error shape
 * (`apiErrorFrom`) until the comments routes are declared for `callApi`.
 */
import { apiErrorFrom } from "../api-client.ts";

export const commentStatuses = ["held", "approved", "hidden", "spam"] as const;
export type CommentStatus = (typeof commentStatuses)[number];
export type ModerationAction = "approve" | "hide" | "delete" | "spam";

export interface QueuedComment {
  id: number;
  parentId: number | null;
  post: { id: number; title: string; slug: string };
  author: { name: string; isOwner: boolean; readerId: number | null; email: string | null; banned: boolean; alwaysHold: boolean };
  body: string;
  html: string;
  status: CommentStatus;
  holdReason: string | null;
  createdAt: string;
  editedAt: string | null;
}

export interface CommentQueue {
  comments: QueuedComment[];
  total: number;
  page: number;
  pages: number;
  held: number;
}

async function send<Answer>(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    ...(body !== undefined && { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw apiErrorFrom(response.status, response.statusText, text, { endsSession: response.status === 401 });
  return (text === "" ? undefined : JSON.parse(text)) as Answer;
}

export const commentCalls = {
  queue: (filter: { status: CommentStatus; q: string; page: number }) => {
    const query = new URLSearchParams({ status: filter.status, page: String(filter.page), ...(filter.q && { q: filter.q }) });
    return send<CommentQueue>("GET", `/api/comments?${query.toString()}`);
  },
  count: () => send<{ held: number }>("GET", "/api/comments/count"),
  moderate: (ids: number[], action: ModerationAction) => send<{ changed: number }>("POST", "/api/comments/moderate", { ids, action }),
  reader: (readerId: number, action: "ban" | "unban" | "hold" | "unhold") => send<unknown>("POST", `/api/readers/${String(readerId)}/${action}`),
  reply: (postId: number, parentId: number, body: string) =>
    send<{ id: number; status: string }>("POST", `/api/posts/${String(postId)}/comments`, { body, parentId }),
};

/** The queries' keys: every comments query starts with `commentsKey`, so one invalidation refreshes the list and the badge. */
export const commentsKey = ["/api/comments"] as const;
