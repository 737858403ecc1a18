import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { NotFoundError } from "../errors.ts";
import type { SubscriberStatus } from "./subscriber.schema.ts";
import { subscriberGoneMessage, type SubscriberData } from "./subscriber-privacy.schema.ts";

interface SubscriberRow {
  id: number;
  email: string;
  status: SubscriberStatus;
  source: string;
  subscribed_at: Date;
  confirmed_at: Date | null;
  unsubscribed_at: Date | null;
}

interface ConsentRow {
  source: string;
  wording: string;
  asked_at: Date;
  confirmed_at: Date | null;
}

interface EmailRow {
  kind: string;
  subject: string;
  message_id: string;
  sent_at: Date;
  download_id: number | null;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * Everything held about one subscriber: the row, the consent records and the emails sent, read in
 * one transaction so the three agree. 404 for an id that names nobody.
 */
export async function exportSubscriberData(deps: { db: SqlExecutor; now: () => Date }, id: number): Promise<SubscriberData> {
  return deps.db.transaction(async (tx: SqlQueryable) => {
    const { rows } = await tx.query<SubscriberRow>(
      "SELECT id, email, status, source, subscribed_at, confirmed_at, unsubscribed_at FROM subscribers WHERE id = $1",
      [id],
    );
    const row = rows[0];
    if (!row) throw new NotFoundError(subscriberGoneMessage);
    const consents = await tx.query<ConsentRow>(
      "SELECT source, wording, asked_at, confirmed_at FROM subscriber_consents WHERE subscriber_id = $1 ORDER BY asked_at, id",
      [id],
    );
    const emails = await tx.query<EmailRow>(
      "SELECT kind, subject, message_id, sent_at, download_id FROM subscriber_emails WHERE subscriber_id = $1 ORDER BY sent_at, id",
      [id],
    );
    return {
      subscriber: {
        id: row.id,
        email: row.email,
        status: row.status,
        source: row.source,
        subscribedAt: row.subscribed_at.toISOString(),
        confirmedAt: iso(row.confirmed_at),
        unsubscribedAt: iso(row.unsubscribed_at),
      },
      consents: consents.rows.map((consent) => ({
        source: consent.source,
        wording: consent.wording,
        askedAt: consent.asked_at.toISOString(),
        confirmedAt: iso(consent.confirmed_at),
      })),
      emails: emails.rows.map((email) => ({
        kind: email.kind,
        subject: email.subject,
        messageId: email.message_id,
        sentAt: email.sent_at.toISOString(),
        resourceId: email.download_id,
      })),
      exportedAt: deps.now().toISOString(),
    };
  });
}

/**
 * Erases a subscriber for good: the row goes, and with it (ON DELETE CASCADE) every consent and
 * send record and every email of theirs in the outbox, sent or still queued, so the address is left
 * nowhere. 404 for an id that names nobody.
 */
export async function eraseSubscriber(deps: { db: SqlQueryable }, id: number): Promise<void> {
  const { rows } = await deps.db.query("DELETE FROM subscribers WHERE id = $1 RETURNING id", [id]);
  if (rows.length === 0) throw new NotFoundError(subscriberGoneMessage);
}
