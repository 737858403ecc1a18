import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors.ts";
import { verifyPreferencesToken } from "../mail/subscription-tokens.ts";
import type { Clock } from "../shared/clock.ts";
import type { Signer } from "../shared/signer.ts";
import type { Frequency, PreferencesUpdate, ReaderPreferences } from "./reader-preferences.schema.ts";

/**
 * What a reader gets (issue 42 points 2 and 3): everything (the default) or the topics they follow
 * (post tags the owner marked `topic`), each post as it goes out or one weekly digest. Read and
 * changed through the signed link of every email ("Choose what you get"), with no login: the token
 * is the proof, as for unsubscribing. Reading changes nothing (mail scanners open every link).
 */

export interface PreferencesDeps {
  db: SqlExecutor;
  signer: Signer;
  now: Clock["now"];
}

export const invalidPreferencesLinkMessage =
  "This link isn't valid: it may have been cut off or changed on the way. Use the “Choose what you get” link at the foot of any of our emails.";
export const unknownPreferencesMessage = "Nothing is held for this address any more, so nothing more will be sent to it.";
export const unknownTopicMessage = (slug: string) => `“${slug}” is not a topic you can follow`;

/** An address as the page shows it: its first character, then the domain (`j***@example.com`). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

interface SubscriberRow {
  id: number;
  email: string;
  follows_everything: boolean;
  frequency: Frequency;
}

interface TopicRow {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  followed: boolean;
}

/** The subscriber a preferences token names: 403 when it is not ours, 404 when they were erased. */
function subscriberIdOf(deps: Pick<PreferencesDeps, "signer">, rawToken: string | undefined): number {
  const check = verifyPreferencesToken(deps.signer, rawToken);
  if (!check.ok) throw new ForbiddenError(invalidPreferencesLinkMessage);
  return check.token.subscriberId;
}

async function topicsOf(db: SqlQueryable, subscriberId: number): Promise<TopicRow[]> {
  const { rows } = await db.query<TopicRow>(
    `SELECT t.id, t.slug, t.name, t.description,
            EXISTS (SELECT 1 FROM subscriber_topics st WHERE st.subscriber_id = $1 AND st.tag_id = t.id) AS followed
       FROM tags t WHERE t.topic ORDER BY lower(t.name), t.id`,
    [subscriberId],
  );
  return rows;
}

async function preferencesOf(db: SqlQueryable, subscriberId: number): Promise<ReaderPreferences> {
  const { rows } = await db.query<SubscriberRow>("SELECT id, email, follows_everything, frequency FROM subscribers WHERE id = $1", [subscriberId]);
  const row = rows[0];
  if (!row) throw new NotFoundError(unknownPreferencesMessage);
  const topics = await topicsOf(db, subscriberId);
  return {
    email: maskEmail(row.email),
    frequency: row.frequency,
    everything: row.follows_everything,
    topics: topics.map(({ slug, name, description, followed }) => ({ slug, name, description, followed })),
  };
}

/** What a reader gets now, for their token; changes nothing (GET and HEAD). */
export async function readPreferences(deps: Pick<PreferencesDeps, "db" | "signer">, rawToken: string | undefined): Promise<ReaderPreferences> {
  return preferencesOf(deps.db, subscriberIdOf(deps, rawToken));
}

/**
 * Saves a reader's choice: follows everything or not, the topics they follow (replaced as a whole;
 * a topic kept keeps when it was first followed) and the frequency, with the time of the change
 * (the person's export shows it). A slug that names no topic is a 400 and changes nothing.
 */
export async function savePreferences(deps: PreferencesDeps, rawToken: string | undefined, update: PreferencesUpdate): Promise<ReaderPreferences> {
  const subscriberId = subscriberIdOf(deps, rawToken);
  return deps.db.transaction(async (tx) => {
    // Locked first: two saves of one reader (two tabs) apply one after the other, each whole.
    const { rows: found } = await tx.query<{ id: number }>("SELECT id FROM subscribers WHERE id = $1 FOR UPDATE", [subscriberId]);
    if (!found[0]) throw new NotFoundError(unknownPreferencesMessage);
    const { rows: topics } = await tx.query<{ id: number; slug: string }>("SELECT id, slug FROM tags WHERE topic AND slug = ANY($1::text[])", [
      update.topics,
    ]);
    const unknown = update.topics.find((slug) => !topics.some((topic) => topic.slug === slug));
    if (unknown !== undefined) throw new ValidationError(unknownTopicMessage(unknown));
    const ids = topics.map((topic) => topic.id);
    await tx.query("UPDATE subscribers SET follows_everything = $2, frequency = $3, preferences_updated_at = $4 WHERE id = $1", [
      subscriberId,
      update.everything,
      update.frequency,
      deps.now(),
    ]);
    await tx.query("DELETE FROM subscriber_topics WHERE subscriber_id = $1 AND NOT (tag_id = ANY($2::integer[]))", [subscriberId, ids]);
    await tx.query(
      `INSERT INTO subscriber_topics (subscriber_id, tag_id, created_at) SELECT $1, unnest($2::integer[]), $3
       ON CONFLICT (subscriber_id, tag_id) DO NOTHING`,
      [subscriberId, ids, deps.now()],
    );
    return preferencesOf(tx, subscriberId);
  });
}

/**
 * The choice an "Unsubscribe from <topic>" link opens with, ready to save (nothing is saved until the
 * reader presses Save): that topic unticked; from everything, every other topic ticked. Undefined when
 * the slug names none of the site's topics (the page then shows the reader's choice as it is).
 */
export function withoutTopic(preferences: ReaderPreferences, slug: string): ReaderPreferences | undefined {
  if (!preferences.topics.some((topic) => topic.slug === slug)) return undefined;
  return {
    ...preferences,
    everything: false,
    topics: preferences.topics.map((topic) => ({
      ...topic,
      followed: topic.slug === slug ? false : preferences.everything || topic.followed,
    })),
  };
}
