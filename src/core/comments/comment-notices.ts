import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { renderCommentReplyEmail, renderCommentsWaitingEmail } from "../mail/emails.ts";
import { enqueueMail, type OutboxMessage, type RenderedMail } from "../mail/outbox.ts";
import { oneClickHeaders, siteIdentity } from "../mail/person-mail.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import { anonymousReaderName, deletedReaderName } from "./comments.service.ts";

/**
 * The comments' notices (issue 44 point 5, decision 0083), all through the outbox: the owner's
 * "comments are waiting" email, at most one an hour, listing what waits; and a reader's email when
 * someone replies to them, with a one-click way (RFC 8058) to stop those emails only.
 */

/** At most one "comments are waiting" email in this time. */
export const ownerNoticeIntervalMs = 60 * 60 * 1000;
/** Waiting comments an owner's email lists (the count says how many more). */
export const ownerNoticeListed = 20;

/** The path of the one-click stop of reply emails (GET shows a button; POST with the token stops them). */
export const commentNoticesUnsubscribePath = "/api/comments/notices/unsubscribe";

/** A reply notice's unsubscribe token: `n.<subscriberId>.<signature>`, no expiry (an old email's link keeps working). */
export function signCommentNoticesToken(signer: Signer, subscriberId: number): string {
  const body = `n.${String(subscriberId)}`;
  return `${body}.${signer.sign("comment-notices", body)}`;
}

/** The subscriber a token names, or undefined for a token that is not ours. */
export function verifyCommentNoticesToken(signer: Signer, token: string): number | undefined {
  const match = /^n\.([1-9]\d{0,9})\.([\w-]{20,})$/.exec(token);
  if (!match?.[1] || !match[2]) return undefined;
  return signer.verify("comment-notices", `n.${match[1]}`, match[2]) ? Number(match[1]) : undefined;
}

export function commentNoticesUnsubscribeUrl(site: Pick<Site, "absolute">, signer: Signer, subscriberId: number): string {
  return site.absolute(
    `${commentNoticesUnsubscribePath}?${new URLSearchParams({ token: signCommentNoticesToken(signer, subscriberId) }).toString()}`,
  );
}

/** Stops a reader's reply emails (the one-click POST). Answers whether the token named someone. */
export async function stopCommentNotices(deps: { db: SqlQueryable; signer: Signer }, token: string): Promise<boolean> {
  const subscriberId = verifyCommentNoticesToken(deps.signer, token);
  if (subscriberId === undefined) return false;
  await deps.db.query("UPDATE subscribers SET comment_reply_notices = false WHERE id = $1", [subscriberId]);
  return true;
}

/**
 * Queues a reply notice for each approved reply named, in the caller's transaction: to the reader
 * whose top-level comment it answers, unless that reader wrote the reply, stopped these emails, is
 * banned, or was already told about this reply (one notice per reply, whoever approves it twice).
 */
export async function queueReplyNotices(tx: SqlQueryable, deps: { site: Site; now: () => Date }, commentIds: readonly number[]): Promise<number> {
  const { rows } = await tx.query<{ reply_id: number; post_id: number; subscriber_id: number; email: string }>(
    `SELECT r.id AS reply_id, r.post_id, s.id AS subscriber_id, s.email
       FROM comments r JOIN comments p ON p.id = r.parent_id JOIN subscribers s ON s.id = p.subscriber_id
      WHERE r.id = ANY($1::int[]) AND r.status = 'approved'
        AND r.subscriber_id IS DISTINCT FROM p.subscriber_id
        AND s.comment_reply_notices AND s.comments_banned_at IS NULL AND s.status NOT IN ('bounced', 'complained')`,
    [commentIds],
  );
  let queued = 0;
  for (const row of rows) {
    const id = await enqueueMail(
      tx,
      deps,
      { kind: "comment-reply", subscriberId: row.subscriber_id, to: row.email, postId: row.post_id, commentId: row.reply_id },
      { where: "NOT EXISTS (SELECT 1 FROM outbox WHERE kind = 'comment-reply' AND comment_id = $1)", params: [row.reply_id] },
    );
    if (id) queued += 1;
  }
  return queued;
}

/**
 * The scheduled job's run: when comments wait that no email listed yet and the last such email is
 * an hour old (or none was sent), queues one to the owner (the `contact_email` setting) and marks
 * those comments listed. The hour is claimed in the same transaction, so overlapping runs queue one.
 */
export async function queueCommentsWaitingNotice(deps: { db: SqlExecutor; site: Site; now: () => Date }): Promise<boolean> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const fresh = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM comments WHERE status = 'held' AND owner_notified_at IS NULL");
    if ((fresh.rows[0]?.n ?? 0) === 0) return false;
    const claim = await tx.query(
      `INSERT INTO comment_owner_notices AS n (id, last_queued_at) VALUES (true, $1)
       ON CONFLICT (id) DO UPDATE SET last_queued_at = $1 WHERE n.last_queued_at <= $2
       RETURNING 1`,
      [now, new Date(now.getTime() - ownerNoticeIntervalMs)],
    );
    if (claim.rows.length === 0) return false;
    const owner = (await siteSettingValues({ db: tx })).contact_email.trim();
    if (!owner) return false;
    await enqueueMail(tx, deps, { kind: "comments-waiting", subscriberId: null, to: owner });
    await tx.query("UPDATE comments SET owner_notified_at = $1 WHERE status = 'held' AND owner_notified_at IS NULL", [now]);
    return true;
  });
}

const excerpt = (body: string) => {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
};

/** Renders the owner's email at delivery: what waits now (a comment approved since is not listed). */
export async function renderCommentsWaiting(deps: { db: SqlQueryable; site: Site; adminPath?: string | undefined }): Promise<RenderedMail> {
  const { rows } = await deps.db.query<{
    body: string;
    title: string;
    display_name: string | null;
    is_owner: boolean;
    subscriber_id: number | null;
    total: number;
  }>(
    `SELECT c.body, p.title, s.display_name, c.is_owner, c.subscriber_id, count(*) OVER ()::int AS total
       FROM comments c JOIN posts p ON p.id = c.post_id LEFT JOIN subscribers s ON s.id = c.subscriber_id
      WHERE c.status = 'held' ORDER BY c.created_at DESC, c.id DESC LIMIT $1`,
    [ownerNoticeListed],
  );
  const identity = await siteIdentity({ db: deps.db as SqlExecutor, site: deps.site });
  return renderCommentsWaitingEmail({
    ...identity,
    waiting: rows.map((row) => ({
      author: row.subscriber_id === null ? deletedReaderName : (row.display_name ?? anonymousReaderName),
      postTitle: row.title,
      excerpt: excerpt(row.body),
    })),
    total: rows[0]?.total ?? 0,
    queueUrl: deps.adminPath ? deps.site.absolute(`/${deps.adminPath}/comments`) : deps.site.url,
  });
}

/** Renders a reply notice at delivery, with the one-click headers of its unsubscribe link. */
export async function renderCommentReply(deps: { db: SqlQueryable; site: Site; signer: Signer }, message: OutboxMessage): Promise<RenderedMail> {
  const { rows } = await deps.db.query<{
    id: number;
    body: string;
    is_owner: boolean;
    display_name: string | null;
    subscriber_id: number | null;
    title: string;
    slug: string;
  }>(
    `SELECT r.id, r.body, r.is_owner, s.display_name, r.subscriber_id, p.title, p.slug
       FROM comments r JOIN posts p ON p.id = r.post_id LEFT JOIN subscribers s ON s.id = r.subscriber_id WHERE r.id = $1`,
    [message.commentId],
  );
  const reply = rows[0];
  if (!reply || message.subscriberId === null) throw new Error(`no reply for outbox message ${message.messageId}`);
  const unsubscribeUrl = commentNoticesUnsubscribeUrl(deps.site, deps.signer, message.subscriberId);
  const identity = await siteIdentity({ db: deps.db as SqlExecutor, site: deps.site });
  const mail = await renderCommentReplyEmail({
    ...identity,
    replier: reply.is_owner ? deps.site.name : reply.subscriber_id === null ? deletedReaderName : (reply.display_name ?? anonymousReaderName),
    postTitle: reply.title,
    excerpt: excerpt(reply.body),
    commentUrl: deps.site.absolute(`/blog/${encodeURIComponent(reply.slug)}/#comment-${String(reply.id)}`),
    unsubscribeUrl,
  });
  return { ...mail, headers: oneClickHeaders(unsubscribeUrl) };
}
