/** The moderation queue's calls (issue 44 point 5), through the comments routes' own declarations. */
import { commentsRoutes } from "../../../api/routes/comments.routes.ts";
import type { CommentStatus, ModerationAction } from "../../../core/comments/comment.schema.ts";
import { callApi } from "../api-client.ts";

export { commentStatuses, type CommentStatus, type ModerationAction, type QueuedComment } from "../../../core/comments/comment.schema.ts";

const readerCalls = { ban: commentsRoutes.ban, unban: commentsRoutes.unban, hold: commentsRoutes.hold, unhold: commentsRoutes.unhold };

export const commentCalls = {
  queue: (filter: { status: CommentStatus; q: string; page: number }) =>
    callApi(commentsRoutes.queue, { query: { status: filter.status, page: String(filter.page), ...(filter.q && { q: filter.q }) } }),
  count: () => callApi(commentsRoutes.count),
  moderate: (ids: number[], action: ModerationAction) => callApi(commentsRoutes.moderate, { body: { ids, action } }),
  reader: (readerId: number, action: keyof typeof readerCalls) => callApi(readerCalls[action], { params: { id: readerId } }),
  /** The owner's reply, written as the author (the admin session; approved at once). */
  reply: (postId: number, parentId: number, body: string) => callApi(commentsRoutes.create, { params: { id: postId }, body: { body, parentId } }),
};

/** Every comments query's key starts with this: one invalidation refreshes the queue and the tab's count. */
export const commentsKey = [commentsRoutes.queue.path] as const;
