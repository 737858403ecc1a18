import { stringify } from "csv-stringify/sync";
import type { SqlQueryable } from "../db/sql-executor.ts";
import { takeRateLimit, type RateLimit } from "../rate-limit.ts";
import { downloadInvitationWording, newsletterConsentWording } from "./consent-wording.ts";
import { startDelivery } from "../mail/outbox.ts";
import type { MailDeps, Recipient } from "../mail/person-mail.ts";
import { queueConfirmationEmail } from "./subscription-emails.ts";
import type { SubscriberStatus } from "./subscriber.schema.ts";
import { setSubscriberTags, signupTag } from "./subscriber-tags.ts";
import { recordWebhookEvent, type WebhookRecordDeps } from "../webhooks/webhook-events.ts";

interface SubscriberRow {
  id: number;
  email: string;
  status: SubscriberStatus;
  subscribed_at: Date;
  source: string;
  /** `everything`, or the topics' slugs followed (comma-separated; empty for none). */
  topics: string | null;
  tags: string | null;
}

/** A subscriber row as the lifecycle reads it. */
interface LifecycleRow {
  id: number;
  email: string;
  status: SubscriberStatus;
  /** Whether this statement made the row (a new address). */
  inserted: boolean;
}

/**
 * Records an address (already normalized by `emailSchema`) that asked for something: a new one is
 * `pending`. With `reopen` (a newsletter signup) an unsubscribed, bounced or complained address goes
 * back to `pending` and must confirm again; otherwise a known address stays as it is. One statement, so two concurrent
 * asks for the same address make one row.
 */
async function recordAddress(db: SqlQueryable, email: string, source: ConsentSource, now: Date, reopen: boolean): Promise<LifecycleRow> {
  const { rows } = await db.query<LifecycleRow>(
    `INSERT INTO subscribers (email, source, subscribed_at, status) VALUES ($1, $2, $3, 'pending')
     ON CONFLICT ((lower(email))) DO UPDATE
       SET status = CASE WHEN $4 AND subscribers.status IN ('unsubscribed', 'bounced', 'complained') THEN 'pending' ELSE subscribers.status END
     RETURNING id, email, status, (xmax = 0) AS inserted`,
    [email, source, now, reopen],
  );
  return rows[0] as LifecycleRow;
}

export type ConsentSource = "newsletter" | "download" | "import";

/**
 * Keeps that a subscriber was asked to join, with the words they were shown: their open
 * (unconfirmed) record of this source is brought up to date, or a new one is made. Answers its id,
 * which a confirmation link carries. With `asking` false the statement still runs and changes
 * nothing (answering undefined), so a signup costs the same whoever signs up.
 */
export async function recordConsentAsk(
  db: SqlQueryable,
  subscriberId: number,
  source: ConsentSource,
  wording: string,
  now: Date,
  asking = true,
): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(
    `WITH open AS (
       UPDATE subscriber_consents SET wording = $3, asked_at = $4
        WHERE $5::boolean
          AND id = (SELECT id FROM subscriber_consents WHERE subscriber_id = $1 AND source = $2 AND confirmed_at IS NULL ORDER BY id DESC LIMIT 1)
        RETURNING id),
     added AS (
       INSERT INTO subscriber_consents (subscriber_id, source, wording, asked_at)
       SELECT $1, $2, $3, $4 WHERE $5::boolean AND NOT EXISTS (SELECT 1 FROM open)
       RETURNING id)
     SELECT id FROM open UNION ALL SELECT id FROM added`,
    [subscriberId, source, wording, now, asking],
  );
  return rows[0]?.id;
}

/** Per client address: plenty for a person, little for a script filling the list. */
export const subscribeLimit: RateLimit = { bucket: "newsletter", max: 10, windowMs: 10 * 60 * 1000 };

export interface SubscribeInput {
  /** Already checked and lower-cased by `emailSchema`. */
  email: string;
  /** Used for the rate limit only, then forgotten (docs/decisions/0013-no-ip-in-consent.md). */
  clientIp: string;
  /** The site page the form was on (its path, from the Referer), for the `signup:<where>` tag; null: not known. */
  page?: string | null | undefined;
}

/**
 * A visitor signs an address up on the site's form: one hit on `limit` for their client address
 * (429 when over it); then a new, pending or unsubscribed address becomes `pending`, its consent
 * record keeps the form's wording, and a confirmation email is queued in the same transaction — at
 * most one per `confirmationIntervalMs` (subscription-emails.ts). An active address gets nothing. The answer waits for the
 * database only, never for the SMTP server (the outbox delivers after it), so the caller can't tell
 * which happened, by its content or its time, and nobody learns who is subscribed.
 */
export async function subscribe(deps: MailDeps, input: SubscribeInput, limit: RateLimit = subscribeLimit): Promise<number | undefined> {
  await takeRateLimit(deps, limit, input.clientIp);
  const now = deps.now();
  // One transaction: the upsert locks the address's row, so concurrent signups of one address take
  // turns — one consent record, one claim, one queued email. The same three statements run for a
  // new, pending or active address (the last two change nothing for an active one): the answer's
  // time does not tell them apart.
  const { queued, consentId } = await deps.db.transaction(async (tx) => {
    const subscriber = await recordAddress(tx, input.email, "newsletter", now, true);
    if (subscriber.inserted) await recordWebhookEvent(tx, deps, "subscriber.created", subscriber, subscriber.id);
    const asking = subscriber.status !== "active";
    const consentId = await recordConsentAsk(tx, subscriber.id, "newsletter", newsletterConsentWording, now, asking);
    // Where they signed up (issue 42 point 4), kept with the first signup's date. Run for an active
    // address too (it changes nothing there): the statements, and so the answer's time, stay the same.
    await setSubscriberTags(tx, [subscriber.id], [signupTag(input.page ?? null)], {
      source: "signup",
      detail: `signed up on ${input.page ?? "the site"}`,
      at: now,
    });
    return { queued: await queueConfirmationEmail(tx, deps, subscriber, consentId, asking), consentId };
  });
  if (queued) startDelivery(deps);
  // The consent asked (none for an address already active): the stats count it as a signup.
  return consentId;
}

/**
 * A buyer ticked the newsletter box at Checkout (issue 47 point 3): on the payment's transaction,
 * the same three statements as a signup on the form (`subscribe`, without its rate limit, which the
 * checkout call took): pending, a consent record with the form's wording, a confirmation email.
 * Answers whether an email was queued.
 */
export async function subscribeOnTransaction(tx: SqlQueryable, deps: Pick<MailDeps, "site" | "now">, email: string): Promise<boolean> {
  const now = deps.now();
  const subscriber = await recordAddress(tx, email, "newsletter", now, true);
  if (subscriber.inserted) await recordWebhookEvent(tx, deps, "subscriber.created", subscriber, subscriber.id);
  const asking = subscriber.status !== "active";
  const consentId = await recordConsentAsk(tx, subscriber.id, "newsletter", newsletterConsentWording, now, asking);
  return queueConfirmationEmail(tx, deps, subscriber, consentId, asking);
}

/**
 * Someone gave their address for a resource: a new address is recorded `pending` (source
 * `download`); a known one keeps its status (an unsubscribed person asked for a file, not for the
 * newsletter). Unless they are active, they are invited to the newsletter in the download email:
 * a consent record keeps the invitation's wording, and `consentId` is what its link confirms.
 */
export async function recordDownloadRequester(
  db: SqlQueryable,
  email: string,
  now: Date,
  hooks: WebhookRecordDeps = { now: () => now },
): Promise<{ recipient: Recipient; consentId: number | null }> {
  const subscriber = await recordAddress(db, email, "download", now, false);
  if (subscriber.inserted) await recordWebhookEvent(db, hooks, "subscriber.created", subscriber, subscriber.id);
  const recipient = { id: subscriber.id, email: subscriber.email };
  if (subscriber.status === "active") return { recipient, consentId: null };
  return { recipient, consentId: (await recordConsentAsk(db, subscriber.id, "download", downloadInvitationWording, now)) ?? null };
}

/** A status as the CSV says it, in words: Pending, Active, Unsubscribed (never a vague "Inactive"). */
export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/** A cell that a spreadsheet would run as a formula gets a leading quote (CSV injection). */
function formulaSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const csvHeader = ["Email", "Status", "Subscribed At", "Source", "Topics", "Tags"];
const pageSize = 2000;

/**
 * The subscribers as CSV (RFC 4180 quoting, formula-safe cells), produced page by page with keyset
 * pagination, so memory stays flat however many there are, on every database driver.
 */
export function exportSubscribersCsv(deps: { db: SqlQueryable }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let lastId = 0;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(stringify([csvHeader], { record_delimiter: "windows" })));
        return;
      }
      const { rows } = await deps.db.query<SubscriberRow>(
        `SELECT s.id, s.email, s.status, s.subscribed_at, s.source,
                CASE WHEN s.follows_everything THEN 'everything'
                     ELSE (SELECT string_agg(t.slug, ', ' ORDER BY t.slug) FROM subscriber_topics st JOIN tags t ON t.id = st.tag_id WHERE st.subscriber_id = s.id) END AS topics,
                (SELECT string_agg(g.slug, ', ' ORDER BY g.slug) FROM subscriber_tag_assignments a JOIN subscriber_tags g ON g.id = a.subscriber_tag_id WHERE a.subscriber_id = s.id) AS tags
           FROM subscribers s WHERE s.id > $1 ORDER BY s.id LIMIT $2`,
        [lastId, pageSize],
      );
      if (rows.length === 0) {
        controller.close();
        return;
      }
      lastId = rows[rows.length - 1]?.id ?? lastId;
      const records = rows.map((row) => [
        formulaSafe(row.email),
        statusLabel(row.status),
        row.subscribed_at.toISOString(),
        formulaSafe(row.source),
        row.topics ?? "",
        row.tags ?? "",
      ]);
      controller.enqueue(encoder.encode(stringify(records, { record_delimiter: "windows" })));
    },
  });
}
