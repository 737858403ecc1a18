import type { AppDeps } from "../app-deps.ts";
import { isRowId } from "../db/row-id.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { renderNewsletterEmail } from "../mail/emails.ts";
import type { EmailContent } from "../mail/email-content.ts";
import { siteIdentity } from "../subscribers/subscription-emails.ts";
import { placeholderUnsubscribeUrl } from "./newsletter-message.ts";

export type NewsletterDeps = Pick<AppDeps, "db" | "env" | "mail" | "now" | "urls">;

export type SendStatus = "queued" | "sending" | "sent" | "failed";

/** A send and where it stands: sent + failed + skipped + pending = total, always. */
export interface NewsletterSend {
  id: number;
  postId: number;
  status: SendStatus;
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  pending: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

interface PostRow {
  id: number;
  title: string;
  content: string;
  excerpt: string | null;
  published: boolean;
}

const postPath = (id: number) => `/blog/${String(id)}`;

/** The newsletter email for a post, with a placeholder where each recipient's unsubscribe token goes. */
export async function renderPostNewsletter(deps: Pick<NewsletterDeps, "db" | "env" | "urls">, post: PostRow): Promise<EmailContent> {
  const site = await siteIdentity(deps);
  return renderNewsletterEmail({
    ...site,
    title: post.title,
    excerpt: post.excerpt,
    contentHtml: post.content,
    postUrl: new URL(postPath(post.id), `${site.siteUrl}/`).toString(),
    unsubscribeUrl: placeholderUnsubscribeUrl(deps),
  });
}

async function publishedPost(deps: Pick<NewsletterDeps, "db">, postId: number): Promise<PostRow> {
  if (!isRowId(postId)) throw new NotFoundError("Post not found");
  const { rows } = await deps.db.query<PostRow>("SELECT id, title, content, excerpt, published FROM posts WHERE id = $1", [postId]);
  const post = rows[0];
  if (!post) throw new NotFoundError("Post not found");
  if (!post.published) throw new ValidationError("Only a published post can be sent as the newsletter");
  return post;
}

/**
 * Starts sending a published post to the list: renders the email once, and fixes the recipients —
 * one row per subscriber active now, in one INSERT … SELECT (someone who subscribes later is not
 * added; someone who leaves before their turn is skipped by the worker). A post is sent once:
 * 409 when it has a send already. Workers do the sending (runSendWorker).
 */
export async function startSend(deps: NewsletterDeps, postId: number): Promise<NewsletterSend> {
  const email = await renderPostNewsletter(deps, await publishedPost(deps, postId));
  const now = deps.now();
  const sendId = await deps.db.transaction(async (tx) => {
    // The post's row lock makes two starts for the same post take turns: the second sees the first.
    const { rows: posts } = await tx.query<{ published: boolean }>("SELECT published FROM posts WHERE id = $1 FOR UPDATE", [postId]);
    if (!posts[0]) throw new NotFoundError("Post not found");
    if (!posts[0].published) throw new ValidationError("Only a published post can be sent as the newsletter");
    const { rows: earlier } = await tx.query("SELECT id FROM newsletter_sends WHERE post_id = $1 LIMIT 1", [postId]);
    if (earlier.length > 0) throw new ConflictError("This post was already sent as the newsletter");
    const { rows } = await tx.query<{ id: number }>(
      "INSERT INTO newsletter_sends (post_id, subject, html, text, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
      [postId, email.subject, email.html, email.text, now],
    );
    const id = (rows[0] as { id: number }).id;
    const { rows: counted } = await tx.query<{ total: number }>(
      `WITH fixed AS (
         INSERT INTO newsletter_recipients (send_id, subscriber_id)
         SELECT $1, id FROM subscribers WHERE status = 'active' ORDER BY id
         RETURNING 1
       )
       SELECT count(*)::int AS total FROM fixed`,
      [id],
    );
    const total = counted[0]?.total ?? 0;
    // An empty list is done at once; otherwise the first worker moves it to "sending".
    await tx.query(
      "UPDATE newsletter_sends SET total = $2, status = CASE WHEN $2::int = 0 THEN 'sent' ELSE 'queued' END, finished_at = CASE WHEN $2::int = 0 THEN $3::timestamptz END WHERE id = $1",
      [id, total, now],
    );
    return id;
  });
  return sendStatus(deps, sendId);
}

interface SendRow {
  id: number;
  post_id: number;
  status: SendStatus;
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  pending: number;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

const isoOrNull = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A send's counts, read in one statement, so they add up to its total. 404 for an unknown id. */
export async function sendStatus(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<NewsletterSend> {
  if (!isRowId(sendId)) throw new NotFoundError("Send not found");
  const { rows } = await deps.db.query<SendRow>(
    `SELECT s.id, s.post_id, s.status, s.created_at, s.started_at, s.finished_at,
            count(r.id)::int AS total,
            (count(*) FILTER (WHERE r.status = 'sent'))::int AS sent,
            (count(*) FILTER (WHERE r.status = 'failed'))::int AS failed,
            (count(*) FILTER (WHERE r.status = 'skipped'))::int AS skipped,
            (count(*) FILTER (WHERE r.status = 'pending'))::int AS pending
       FROM newsletter_sends s LEFT JOIN newsletter_recipients r ON r.send_id = s.id
      WHERE s.id = $1
      GROUP BY s.id`,
    [sendId],
  );
  const row = rows[0];
  if (!row) throw new NotFoundError("Send not found");
  return {
    id: row.id,
    postId: row.post_id,
    status: row.status,
    total: row.total,
    sent: row.sent,
    failed: row.failed,
    skipped: row.skipped,
    pending: row.pending,
    createdAt: new Date(row.created_at).toISOString(),
    startedAt: isoOrNull(row.started_at),
    finishedAt: isoOrNull(row.finished_at),
  };
}
