import type { SqlQueryable } from "../db/sql-executor.ts";
import { placeholderAddressMessage, usesPlaceholderAddress } from "../mail/postal-address.ts";
import { postPath } from "../posts/post-slug-rules.ts";
import { trackNewsletterLinks } from "../stats/newsletter-clicks.ts";
import { renderPostNewsletter, type NewsletterDeps } from "./newsletter-post-email.ts";
import { prepareDueSends, prepareSend, type PrepareOptions } from "./newsletter-prepare.ts";

export { nobodyWhenDueMessage } from "./newsletter-prepare.ts";

/** How long a send may wait for its post's page before the dashboard says why it still waits. */
export const siteWaitWarningMs = 15 * 60_000;

/** What the dashboard shows on a send whose post's page is still not live 15 minutes after it was due. */
export const notLiveMessage = (url: string, answer: string) =>
  `The post's page (${url}) is still not live 15 minutes after this send was due: it answered ${answer}. ` +
  "The send waits and starts on its own once the page answers; check the site's last build, or cancel the send.";

interface WaitingRow {
  id: number;
  post_id: number;
  due_at: Date | string;
  slug: string;
  published: boolean;
  title: string;
  content: string;
  excerpt: string | null;
  email_subject: string | null;
  featured_image_key: string | null;
  featured_image_alt: string | null;
}

/**
 * Starts a send that waits (`scheduled` or `waiting`) if it is due and its post's public page
 * answers 200: the email is rendered now and the send becomes `preparing`, its recipients bound
 * to the subscribers there are at this moment; they are then fixed in batches (prepareSend), here
 * until `options.until` and by the timers after that, each one active when its batch is fixed
 * (those who confirmed while it waited included), and once the last is fixed it becomes `queued`
 * for the workers. Not live yet: it stays `waiting`, with the reason once it has waited 15
 * minutes. Safe to run from two places at once: one start wins (the status check under the row's
 * lock), the other does nothing. Returns whether it started (false too when nobody was active).
 */
export async function startIfLive(deps: NewsletterDeps, sendId: number, options: PrepareOptions = {}): Promise<boolean> {
  const now = deps.now();
  const { rows } = await deps.db.query<WaitingRow>(
    `SELECT s.id, s.post_id, COALESCE(s.send_at, s.created_at) AS due_at, p.slug, p.published, p.title, p.content, p.excerpt, p.email_subject, p.featured_image_key, p.featured_image_alt
       FROM newsletter_sends s JOIN posts p ON p.id = s.post_id
      WHERE s.id = $1 AND s.status IN ('scheduled', 'waiting') AND COALESCE(s.send_at, s.created_at) <= $2`,
    [sendId, now],
  );
  const send = rows[0];
  if (!send) return false;
  const waitedMs = now.getTime() - new Date(send.due_at).getTime();
  const keepWaiting = (reason: string | null) =>
    deps.db.query("UPDATE newsletter_sends SET status = 'waiting', status_reason = $2 WHERE id = $1 AND status IN ('scheduled', 'waiting')", [
      sendId,
      reason,
    ]);
  if (deps.production && (await usesPlaceholderAddress(deps))) {
    await keepWaiting(placeholderAddressMessage);
    return false;
  }
  const url = deps.site.absolute(postPath(send.slug));
  // A draft again (unpublished after the send was made) is not served either: it waits as one.
  const check = send.published ? await deps.checkPage(url) : { live: false, answer: "the post is a draft" };
  if (!check.live) {
    await keepWaiting(waitedMs >= siteWaitWarningMs ? notLiveMessage(url, check.answer) : null);
    return false;
  }
  const email = await renderPostNewsletter(deps, { ...send, id: send.post_id }, { perRecipientReason: true });
  const started = await deps.db.transaction(async (tx) => {
    // The highest subscriber id now bounds the audience: who subscribes from here on is not added.
    const { rows: taken } = await tx.query(
      `UPDATE newsletter_sends
          SET status = 'preparing', subject = $2, html = $3, text = $4, status_reason = NULL,
              prepared_through = 0, prepared = 0, prepare_upto = (SELECT COALESCE(max(id), 0) FROM subscribers)
        WHERE id = $1 AND status IN ('scheduled', 'waiting') RETURNING id`,
      [sendId, email.subject, email.html, email.text],
    );
    if (taken.length === 0) return false;
    await trackLinks(tx, deps, sendId, email.html);
    return true;
  });
  if (!started) return false;
  return (await prepareSend(deps, sendId, options)) !== "failed";
}

/** The newsletter's links made trackable, once, as the send starts (its stored HTML rewritten). */
async function trackLinks(
  tx: SqlQueryable,
  deps: Pick<NewsletterDeps, "signer" | "site" | "urls" | "clickTracking">,
  sendId: number,
  html: string,
): Promise<void> {
  const clickUrl = deps.clickTracking ? deps.urls.newsletterClick : undefined;
  if (!clickUrl) return;
  const tracked = await trackNewsletterLinks(tx, { signer: deps.signer, site: deps.site, clickUrl }, sendId, html);
  if (tracked !== html) await tx.query("UPDATE newsletter_sends SET html = $2 WHERE id = $1", [sendId, tracked]);
}

/**
 * The audience of a post sent on publish: the readers who follow everything or any topic among the
 * post's tags (`follows a OR follows b`; "everything" for a post in no topic). Weekly readers are
 * left out by every send's rule: the digest brings them the post (decision 0072).
 */
export async function publishAudience(db: SqlQueryable, postId: number): Promise<string> {
  const { rows } = await db.query<{ slug: string }>(
    `SELECT t.slug FROM post_tags pt JOIN tags t ON t.id = pt.tag_id
      WHERE pt.post_id = $1 AND t.topic ORDER BY pt.position, t.slug`,
    [postId],
  );
  return rows.length === 0 ? "everything" : rows.map((row) => `follows ${row.slug}`).join(" OR ");
}

/**
 * "Email to subscribers when published": a send (`waiting`) for each published post marked so that
 * has none yet — whether it was published now or went live at its scheduled time — to the post's
 * topics' readers (publishAudience). A post is sent at
 * most once: a post with any send (cancelled included) gets no other, and the post's row lock makes
 * two timers take turns. Returns the new sends' ids.
 */
export async function createSendsOnPublish(deps: Pick<NewsletterDeps, "db" | "now">): Promise<number[]> {
  const { rows: posts } = await deps.db.query<{ id: number }>(
    `SELECT p.id FROM posts p
      WHERE p.send_as_newsletter AND p.published AND NOT EXISTS (SELECT 1 FROM newsletter_sends s WHERE s.post_id = p.id)
      ORDER BY p.id`,
  );
  const created: number[] = [];
  for (const post of posts) {
    const id = await deps.db.transaction(async (tx) => {
      const { rows: locked } = await tx.query("SELECT id FROM posts WHERE id = $1 AND published AND send_as_newsletter FOR UPDATE", [post.id]);
      if (locked.length === 0) return null;
      const { rows: earlier } = await tx.query("SELECT id FROM newsletter_sends WHERE post_id = $1 LIMIT 1", [post.id]);
      if (earlier.length > 0) return null;
      const { rows } = await tx.query<{ id: number }>(
        "INSERT INTO newsletter_sends (post_id, status, subject, html, text, created_at, segment) VALUES ($1, 'waiting', '', '', '', $2, $3) RETURNING id",
        [post.id, deps.now(), await publishAudience(tx, post.id)],
      );
      return rows[0]?.id ?? null;
    });
    if (id !== null) created.push(id);
  }
  return created;
}

/**
 * The timers' first step, every tick: makes the sends "when published" asks for, goes on fixing
 * the recipients of the sends still preparing, then starts each send that waits and is due once
 * its post's page is live — all until `options.until` (the run's deadline). One send failing to
 * start (the database, the renderer) does not hold up the others; the next tick tries it again.
 */
export async function startDueSends(deps: NewsletterDeps, options: PrepareOptions = {}): Promise<number[]> {
  await createSendsOnPublish(deps);
  await prepareDueSends(deps, options);
  const { rows } = await deps.db.query<{ id: number }>(
    `SELECT id FROM newsletter_sends
      WHERE status IN ('scheduled', 'waiting') AND COALESCE(send_at, created_at) <= $1
      ORDER BY id`,
    [deps.now()],
  );
  const started: number[] = [];
  for (const { id } of rows) {
    try {
      if (await startIfLive(deps, id, options)) started.push(id);
    } catch (error) {
      console.warn(`[newsletter] send ${String(id)} could not start; the next tick tries again:`, error);
    }
  }
  return started;
}
