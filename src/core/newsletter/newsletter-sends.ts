import type { SqlExecutor } from "../db/sql-executor.ts";
import { isRowId } from "../db/row-id.ts";
import { sendFigures, sendFiguresColumns, sendFiguresSql, type SendFigureRow } from "../email-events/send-health.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { renderNewsletterEmail } from "../mail/emails.ts";
import type { EmailContent } from "../mail/email-content.ts";
import type { Mailer } from "../mail/mailer.ts";
import { placeholderAddressMessage, usesPlaceholderAddress } from "../mail/postal-address.ts";
import type { Clock } from "../shared/clock.ts";
import type { ApiUrls } from "../shared/links.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import { siteIdentity } from "../subscribers/subscription-emails.ts";
import { postPath } from "../posts/post-slug-rules.ts";
import { placeholderUnsubscribeUrl, recipientReasonPlaceholder } from "./newsletter-message.ts";
import { trackNewsletterLinks } from "../stats/newsletter-clicks.ts";
import type { FailedRecipient, NewsletterSend } from "./newsletter.schema.ts";

export type { NewsletterSend } from "./newsletter.schema.ts";

/** What the newsletter needs: the database, a mailer, the clock, and the site its links point at. */
export interface NewsletterDeps {
  db: SqlExecutor;
  mail: Mailer;
  now: Clock["now"];
  /** The same clock, for waits (the worker's lease keeper). */
  clock: Clock;
  urls: Pick<ApiUrls, "unsubscribe" | "newsletterClick">;
  site: Site;
  /** Newsletter links go through the signed click redirect (CLICK_TRACKING, on unless `off`). */
  clickTracking?: boolean;
  signer: Signer;
  /**
   * Production (set by the app from its configuration): a send is refused while the footer's
   * postal address is still the seeded placeholder. Unset: locally the placeholder goes out.
   */
  production?: boolean;
}

interface PostRow {
  id: number;
  title: string;
  content: string;
  excerpt: string | null;
  published: boolean;
  slug: string;
}

export const noRecipientsMessage = "There is no active subscriber to send this post to yet.";

/**
 * The newsletter email for a post, with a placeholder where each recipient's unsubscribe token
 * goes. A send's copy (`perRecipientReason`) has one for the footer's reason too; a preview shows
 * the newsletter form's reason.
 */
export async function renderPostNewsletter(
  deps: Pick<NewsletterDeps, "db" | "site" | "urls">,
  post: PostRow,
  options: { perRecipientReason?: boolean } = {},
): Promise<EmailContent> {
  const site = await siteIdentity(deps);
  return renderNewsletterEmail({
    ...site,
    title: post.title,
    excerpt: post.excerpt,
    contentHtml: post.content,
    postUrl: deps.site.absolute(postPath(post.slug)),
    unsubscribeUrl: placeholderUnsubscribeUrl(deps),
    ...(options.perRecipientReason && { reason: recipientReasonPlaceholder }),
  });
}

export async function publishedPost(deps: Pick<NewsletterDeps, "db">, postId: number): Promise<PostRow> {
  if (!isRowId(postId)) throw new NotFoundError("Post not found");
  const { rows } = await deps.db.query<PostRow>("SELECT id, title, content, excerpt, published, slug FROM posts WHERE id = $1", [postId]);
  const post = rows[0];
  if (!post) throw new NotFoundError("Post not found");
  if (!post.published) throw new ValidationError("Only a published post can be sent as the newsletter");
  return post;
}

/**
 * Starts sending a published post to the list: renders the email once, and fixes the recipients —
 * one row per subscriber active now, in one INSERT … SELECT (someone who subscribes later is not
 * added; someone who leaves before their turn is skipped by the worker). A post is sent once:
 * 409 when it has a send already; 400 when nobody is subscribed (the post is not used up).
 * Workers do the sending (runSendWorker).
 */
export async function startSend(deps: NewsletterDeps, postId: number): Promise<NewsletterSend> {
  if (deps.production && (await usesPlaceholderAddress(deps))) throw new ValidationError(placeholderAddressMessage);
  const email = await renderPostNewsletter(deps, await publishedPost(deps, postId), { perRecipientReason: true });
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
    const clickUrl = deps.clickTracking ? deps.urls.newsletterClick : undefined;
    if (clickUrl) {
      const tracked = await trackNewsletterLinks(tx, { signer: deps.signer, site: deps.site, clickUrl }, id, email.html);
      if (tracked !== email.html) await tx.query("UPDATE newsletter_sends SET html = $2 WHERE id = $1", [id, tracked]);
    }
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
    // Rolled back: a send to nobody would use up the post's one send.
    if (total === 0) throw new ValidationError(noRecipientsMessage);
    await tx.query("UPDATE newsletter_sends SET total = $2 WHERE id = $1", [id, total]);
    return id;
  });
  return sendStatus(deps, sendId);
}

interface SendRow extends SendFigureRow {
  id: number;
  post_id: number;
  status: NewsletterSend["status"];
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  pending: number;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  paused_reason: string | null;
  paused_until: Date | string | null;
}

const isoOrNull = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

// The counts come from the rows in one statement, so they always add up to the total.
const sendsWithCounts = (where: string) =>
  `SELECT s.id, s.post_id, s.status, s.created_at, s.started_at, s.finished_at, s.paused_reason, s.paused_until,
          count(r.id)::int AS total,
          (count(*) FILTER (WHERE r.status = 'sent'))::int AS sent,
          (count(*) FILTER (WHERE r.status = 'failed'))::int AS failed,
          (count(*) FILTER (WHERE r.status = 'skipped'))::int AS skipped,
          (count(*) FILTER (WHERE r.status = 'pending'))::int AS pending,
          ${sendFiguresColumns}
     FROM newsletter_sends s LEFT JOIN newsletter_recipients r ON r.send_id = s.id
     ${sendFiguresSql}
    WHERE ${where}
    GROUP BY s.id
    ORDER BY s.created_at DESC, s.id DESC`;

/** A send's counts: sent + failed + skipped + pending = total. 404 for an unknown id. */
export async function sendStatus(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<NewsletterSend> {
  if (!isRowId(sendId)) throw new NotFoundError("Send not found");
  const { rows } = await deps.db.query<SendRow>(sendsWithCounts("s.id = $1"), [sendId]);
  const row = rows[0];
  if (!row) throw new NotFoundError("Send not found");
  return toSend(row);
}

/** Every send newest first, or one post's (its send history) with `postId`. */
export async function listSends(deps: Pick<NewsletterDeps, "db">, filter: { postId?: number | undefined } = {}): Promise<NewsletterSend[]> {
  const { rows } =
    filter.postId === undefined
      ? await deps.db.query<SendRow>(sendsWithCounts("true"))
      : await deps.db.query<SendRow>(sendsWithCounts("s.post_id = $1"), [filter.postId]);
  return rows.map(toSend);
}

/** The recipients of a send the SMTP server refused, with its reply (an erased subscriber is not listed). */
export async function failedRecipients(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<FailedRecipient[]> {
  await sendStatus(deps, sendId);
  const { rows } = await deps.db.query<FailedRecipient>(
    `SELECT s.email, r.last_error AS error, r.attempts
       FROM newsletter_recipients r JOIN subscribers s ON s.id = r.subscriber_id
      WHERE r.send_id = $1 AND r.status = 'failed'
      ORDER BY r.id`,
    [sendId],
  );
  return rows;
}

/**
 * "Retry failed": the failed rows go back to pending (attempts from zero) and the send to sending;
 * nothing else is touched, so only those recipients get the email. Workers do the sending.
 */
export async function retryFailed(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<NewsletterSend> {
  const send = await sendStatus(deps, sendId);
  if (send.status === "cancelled") throw new ConflictError("This send was cancelled");
  await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE newsletter_recipients SET status = 'pending', attempts = 0, lease_until = NULL
        WHERE send_id = $1 AND status = 'failed' AND subscriber_id IS NOT NULL RETURNING 1`,
      [sendId],
    );
    // A paused send stays paused: the rows wait for the owner's Resume with the rest.
    if (rows.length > 0)
      await tx.query("UPDATE newsletter_sends SET status = 'sending', finished_at = NULL WHERE id = $1 AND status <> 'paused'", [sendId]);
    // The owner asked for a try now: a pause's wait ends (the send pauses again if the provider is still down).
    await tx.query("UPDATE newsletter_sends SET paused_until = NULL WHERE id = $1 AND paused_until IS NOT NULL", [sendId]);
  });
  return sendStatus(deps, sendId);
}

function toSend(row: SendRow): NewsletterSend {
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
    pausedReason: row.paused_reason,
    pausedUntil: isoOrNull(row.paused_until),
    ...sendFigures(row),
  };
}

/**
 * The owner read why a send paused itself and goes on: it is `sending` again (or `queued`, if it
 * never started), its pending rows are claimed as before — each sent once — and it does not pause
 * itself again (the owner chose to go on with these figures). 409 unless it is paused.
 */
export async function resumePausedSend(deps: Pick<NewsletterDeps, "db">, sendId: number): Promise<NewsletterSend> {
  await sendStatus(deps, sendId);
  const { rows } = await deps.db.query(
    `UPDATE newsletter_sends
        SET status = CASE WHEN started_at IS NULL THEN 'queued' ELSE 'sending' END,
            paused_reason = NULL, paused_until = NULL, pauses = 0, auto_pause_off = true
      WHERE id = $1 AND status = 'paused' RETURNING id`,
    [sendId],
  );
  if (rows.length === 0) throw new ConflictError("Only a paused send can be resumed");
  return sendStatus(deps, sendId);
}

/** Statuses a send is finished in: nothing more goes out, and cancel has nothing to stop. */
const finishedStatuses = ["sent", "failed", "cancelled"];

/**
 * Stops a send for good, from whatever state it is still going out in (queued, sending, paused — and
 * any later one that is not finished): its pending recipients are skipped and get nothing; rows in
 * flight at that moment finish. 409 for a finished send.
 */
export async function cancelSend(deps: Pick<NewsletterDeps, "db" | "now">, sendId: number): Promise<NewsletterSend> {
  await sendStatus(deps, sendId);
  await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE newsletter_sends SET status = 'cancelled', finished_at = $2, paused_until = NULL
        WHERE id = $1 AND status <> ALL($3::text[]) RETURNING id`,
      [sendId, deps.now(), finishedStatuses],
    );
    if (rows.length === 0) throw new ConflictError("This send has finished already");
    // Rows a worker holds right now are left to it (settled as sent or failed); the rest, those
    // waiting for a retry (a reply kept) included, are skipped.
    await tx.query(
      `UPDATE newsletter_recipients SET status = 'skipped', last_error = 'Cancelled by the owner'
        WHERE send_id = $1 AND status = 'pending' AND (lease_until IS NULL OR lease_until <= $2 OR last_error IS NOT NULL)`,
      [sendId, deps.now()],
    );
  });
  return sendStatus(deps, sendId);
}
