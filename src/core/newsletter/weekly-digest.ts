import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { newsletterReason, renderDigestEmail } from "../mail/emails.ts";
import { enqueueMail, type OutboxMessage, type RenderedMail } from "../mail/outbox.ts";
import { newsletterListId, preferencesUrl, siteIdentity, unsubscribeUrl, type MailDeps } from "../mail/person-mail.ts";
import { postPath } from "../posts/post-slug-rules.ts";
import { digestDays, settingDefinitions } from "../settings/settings.schema.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import type { Clock } from "../shared/clock.ts";
import type { Site } from "../shared/site.ts";

/**
 * The weekly digest (issue 42 point 2): readers on the `weekly` frequency get one email a week, at
 * the day and hour the owner set (`digest_day`, `digest_hour`, UTC), with the posts published in
 * the 7 days before that moment that carry a topic they follow (every post if they follow
 * everything). A week with no such post sends them nothing. Each (reader, week) is claimed once in
 * `weekly_digests`, in the transaction that queues its email in the outbox, so crashed, replayed or
 * overlapping runs queue it once; the content is read at delivery, so a topic unfollowed before
 * then leaves the digest.
 */

export interface DigestDeps {
  db: SqlExecutor;
  now: Clock["now"];
  site: Site;
}

/** How late a digest may still go out: a job that was down for longer skips that week rather than send it days late. */
export const digestLateLimitMs = 24 * 60 * 60 * 1000;

export const digestEmptyMessage = "Not sent: no post of that week is in this reader's topics any more";
export const digestLeftMessage = "Not sent: this person left the newsletter before the digest went out";
export const digestGoneMessage = "Not sent: this digest is no longer held";

/** The owner's day and hour, a stored value that does not parse falling back to the default. */
export function digestSchedule(settings: { digest_day?: string; digest_hour?: string }): { day: number; hour: number } {
  const dayOf = (value: string | undefined) => digestDays.indexOf((value ?? "").trim().toLowerCase() as (typeof digestDays)[number]);
  const hourOf = (value: string | undefined) => (/^\d{1,2}$/.test((value ?? "").trim()) && Number(value) <= 23 ? Number(value) : -1);
  const day = dayOf(settings.digest_day);
  const hour = hourOf(settings.digest_hour);
  return {
    day: day === -1 ? dayOf(settingDefinitions.digest_day.defaultValue) : day,
    hour: hour === -1 ? hourOf(settingDefinitions.digest_hour.defaultValue) : hour,
  };
}

/** The latest scheduled moment at or before `now` (UTC): the end of the week a digest covers. */
export function lastDigestMoment(now: Date, schedule: { day: number; hour: number }): Date {
  const moment = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), schedule.hour));
  moment.setUTCDate(moment.getUTCDate() - ((now.getUTCDay() - schedule.day + 7) % 7));
  if (moment.getTime() > now.getTime()) moment.setUTCDate(moment.getUTCDate() - 7);
  return moment;
}

/**
 * Whether post `p` is in the digest of reader `reader` for the week ending at `weekEnds` (an SQL
 * parameter): published in the 7 days before it, and carrying a topic the reader follows, or any
 * post for a reader who follows everything.
 */
const inReadersWeek = (reader: string, weekEnds: string) => `
  p.published AND p.published_at >= ${weekEnds}::timestamptz - interval '7 days' AND p.published_at < ${weekEnds}::timestamptz
  AND (${reader}.follows_everything OR EXISTS (
    SELECT 1 FROM post_tags pt JOIN tags t ON t.id = pt.tag_id AND t.topic
      JOIN subscriber_topics st ON st.tag_id = pt.tag_id AND st.subscriber_id = ${reader}.id
     WHERE pt.post_id = p.id))`;

/**
 * Queues the digest of the week that ended last for each weekly reader who has a post in it and has
 * not had it yet; nothing once that moment is more than `digestLateLimitMs` past. Stops taking new
 * readers at `stopAt` (the next run goes on). Answers the week's end and how many were queued.
 */
export async function queueWeeklyDigests(
  deps: DigestDeps,
  options: { stopAt?: Date | undefined; batchSize?: number } = {},
): Promise<{ weekEnds: Date | null; queued: number }> {
  const now = deps.now();
  const weekEnds = lastDigestMoment(now, digestSchedule(await siteSettingValues(deps)));
  if (now.getTime() - weekEnds.getTime() >= digestLateLimitMs) return { weekEnds: null, queued: 0 };
  let queued = 0;
  for (;;) {
    const { rows: readers } = await deps.db.query<{ id: number; email: string }>(
      `SELECT s.id, s.email FROM subscribers s
        WHERE s.status = 'active' AND s.frequency = 'weekly'
          AND NOT EXISTS (SELECT 1 FROM weekly_digests d WHERE d.subscriber_id = s.id AND d.week_ends = $1)
          AND EXISTS (SELECT 1 FROM posts p WHERE ${inReadersWeek("s", "$1")})
        ORDER BY s.id LIMIT $2`,
      [weekEnds, options.batchSize ?? 200],
    );
    if (readers.length === 0) break;
    for (const reader of readers) {
      if (await queueOne(deps, reader, weekEnds)) queued += 1;
      if (options.stopAt && deps.now().getTime() >= options.stopAt.getTime()) return { weekEnds, queued };
    }
  }
  return { weekEnds, queued };
}

/** Claims (reader, week) and queues its email in one transaction; false when another run had it. */
async function queueOne(deps: DigestDeps, reader: { id: number; email: string }, weekEnds: Date): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      "INSERT INTO weekly_digests (subscriber_id, week_ends, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING subscriber_id",
      [reader.id, weekEnds, deps.now()],
    );
    if (rows.length === 0) return false;
    const messageId = await enqueueMail(tx, deps, { kind: "digest", subscriberId: reader.id, to: reader.email });
    await tx.query("UPDATE weekly_digests SET message_id = $3 WHERE subscriber_id = $1 AND week_ends = $2", [reader.id, weekEnds, messageId]);
    return true;
  });
}

/** The posts a reader's digest of the week ending at `weekEnds` holds now, newest first. */
export async function digestPosts(db: SqlQueryable, subscriberId: number, weekEnds: Date) {
  const { rows } = await db.query<{ id: number; title: string; excerpt: string | null; slug: string }>(
    `SELECT p.id, p.title, p.excerpt, p.slug FROM posts p JOIN subscribers s ON s.id = $1
      WHERE ${inReadersWeek("s", "$2")} ORDER BY p.published_at DESC, p.id DESC`,
    [subscriberId, weekEnds],
  );
  return rows;
}

/**
 * A queued digest, made at delivery: the week's posts in what the reader follows at this moment (a
 * topic unfollowed since the queueing leaves it; none left: not sent), in the newsletter's frame
 * with "Choose what you get", the unsubscribe link and the one-click headers (RFC 8058).
 */
export async function renderDigest(deps: Omit<MailDeps, "mail">, message: OutboxMessage): Promise<RenderedMail> {
  if (message.subscriberStatus !== "active" || message.subscriberId === null) throw new ConflictError(digestLeftMessage);
  const { rows } = await deps.db.query<{ week_ends: Date; source: string | null }>(
    "SELECT d.week_ends, s.source FROM weekly_digests d JOIN subscribers s ON s.id = d.subscriber_id WHERE d.message_id = $1",
    [message.messageId],
  );
  const digest = rows[0];
  if (!digest) throw new NotFoundError(digestGoneMessage);
  const posts = await digestPosts(deps.db, message.subscriberId, digest.week_ends);
  if (posts.length === 0) throw new ConflictError(digestEmptyMessage);
  const recipient = { id: message.subscriberId, email: message.to };
  const identity = await siteIdentity(deps);
  const unsubscribe = unsubscribeUrl(deps, recipient);
  const email = await renderDigestEmail({
    ...identity,
    posts: posts.map((post) => ({ title: post.title, excerpt: post.excerpt, url: deps.site.absolute(postPath(post.slug)) })),
    reason: newsletterReason(digest.source, identity),
    unsubscribeUrl: unsubscribe,
    preferencesUrl: preferencesUrl(deps, recipient),
  });
  return {
    ...email,
    headers: {
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "List-Id": newsletterListId(deps.site),
    },
  };
}
