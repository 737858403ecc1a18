import { eraseReaderComments, exportReaderComments } from "../comments/comments.service.ts";
import { subscriberTagsOf } from "./subscriber-tags.ts";
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
  follows_everything: boolean;
  frequency: "each" | "weekly";
  preferences_updated_at: Date | null;
  display_name: string | null;
  comment_reply_notices: boolean;
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

interface NewsletterRow {
  subject: string;
  status: "pending" | "sent" | "failed" | "skipped";
  message_id: string | null;
  sent_at: Date | null;
  attempts: number;
  last_error: string | null;
}

interface UnsentRow {
  kind: string;
  status: "pending" | "failed";
  message_id: string;
  created_at: Date;
  attempts: number;
  last_error: string | null;
}

interface SequenceStepRow {
  enrollment_id: number;
  download_id: number | null;
  enrolled_at: Date | null;
  finished_at: Date | null;
  subject: string | null;
  created_at: Date | null;
  status: "pending" | "sent" | "failed" | null;
  message_id: string | null;
  sent_at: Date | null;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * Everything held about one subscriber: the row, the consent records, the emails sent and their
 * sequences (each enrollment and each step queued for them), read in one transaction so they agree. 404 for an id that names nobody.
 */
export async function exportSubscriberData(deps: { db: SqlExecutor; now: () => Date }, id: number): Promise<SubscriberData> {
  return deps.db.transaction(async (tx: SqlQueryable) => {
    const { rows } = await tx.query<SubscriberRow>(
      `SELECT id, email, status, source, subscribed_at, confirmed_at, unsubscribed_at, follows_everything, frequency, preferences_updated_at, display_name, comment_reply_notices
         FROM subscribers WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) throw new NotFoundError(subscriberGoneMessage);
    const topics = await tx.query<{ slug: string; name: string; created_at: Date }>(
      "SELECT t.slug, t.name, st.created_at FROM subscriber_topics st JOIN tags t ON t.id = st.tag_id WHERE st.subscriber_id = $1 ORDER BY st.created_at, t.slug",
      [id],
    );
    const digests = await tx.query<{ week_ends: Date; created_at: Date }>(
      "SELECT week_ends, created_at FROM weekly_digests WHERE subscriber_id = $1 ORDER BY week_ends",
      [id],
    );
    const consents = await tx.query<ConsentRow>(
      "SELECT source, wording, asked_at, confirmed_at FROM subscriber_consents WHERE subscriber_id = $1 ORDER BY asked_at, id",
      [id],
    );
    const emails = await tx.query<EmailRow>(
      "SELECT kind, subject, message_id, sent_at, download_id FROM subscriber_emails WHERE subscriber_id = $1 ORDER BY sent_at, id",
      [id],
    );
    const newsletters = await tx.query<NewsletterRow>(
      `SELECT s.subject, r.status, r.message_id, r.sent_at, r.attempts, r.last_error
         FROM newsletter_recipients r JOIN newsletter_sends s ON s.id = r.send_id
        WHERE r.subscriber_id = $1 ORDER BY s.created_at, r.id`,
      [id],
    );
    const unsent = await tx.query<UnsentRow>(
      `SELECT kind, status, message_id, created_at, attempts, last_error FROM outbox
        WHERE subscriber_id = $1 AND status <> 'sent' ORDER BY created_at, id`,
      [id],
    );
    const events = await tx.query<{
      type: SubscriberData["emailEvents"][number]["type"];
      provider: string;
      reason: string | null;
      occurred_at: Date;
    }>("SELECT type, provider, reason, occurred_at FROM email_events WHERE subscriber_id = $1 ORDER BY occurred_at, id", [id]);
    const sequenceSteps = await tx.query<SequenceStepRow>(
      `SELECT e.id AS enrollment_id, q.download_id, e.enrolled_at, e.finished_at, d.subject, d.created_at, o.status, d.message_id, o.sent_at
         FROM sequence_enrollments e JOIN sequences q ON q.id = e.sequence_id
         LEFT JOIN sequence_deliveries d ON d.enrollment_id = e.id LEFT JOIN outbox o ON o.message_id = d.message_id
        WHERE e.subscriber_id = $1 ORDER BY e.id, d.id`,
      [id],
    );
    const payments = await tx.query<{
      kind: string;
      status: string;
      amount: number;
      currency: string;
      item_title: string;
      created_at: Date;
      checkout_session_id: string;
    }>(
      "SELECT kind, status, amount, currency, item_title, created_at, checkout_session_id FROM payments WHERE lower(email) = lower($1) ORDER BY created_at, id",
      [row.email],
    );
    const memberships = await tx.query<{
      status: string;
      interval: string | null;
      amount: number;
      currency: string;
      created_at: Date;
      ended_at: Date | null;
      current_period_end: Date | null;
    }>(
      "SELECT status, interval, amount, currency, created_at, ended_at, current_period_end FROM supporters WHERE lower(email) = lower($1) ORDER BY created_at, id",
      [row.email],
    );
    const signIns = await tx.query<{ created_at: Date; expires_at: Date; used_at: Date | null }>(
      "SELECT created_at, expires_at, used_at FROM reader_sign_ins WHERE subscriber_id = $1 ORDER BY id",
      [id],
    );
    const readerSessions = await tx.query<{ created_at: Date; last_seen_at: Date; expires_at: Date }>(
      "SELECT created_at, last_seen_at, expires_at FROM reader_sessions WHERE subscriber_id = $1 ORDER BY created_at",
      [id],
    );
    const pollAnswers = await tx.query<{ poll_id: number; question: string; text: string; answered_at: Date; updated_at: Date }>(
      `SELECT v.poll_id, p.question, a.text, v.answered_at, v.updated_at
         FROM poll_votes v JOIN polls p ON p.id = v.poll_id JOIN poll_answers a ON a.poll_id = v.poll_id AND a.answer_index = v.answer_index
        WHERE v.subscriber_id = $1 ORDER BY v.answered_at, v.poll_id`,
      [id],
    );
    const sequences = new Map<number, SubscriberData["sequences"][number]>();
    for (const step of sequenceSteps.rows) {
      const sequence = sequences.get(step.enrollment_id) ?? {
        key: step.download_id === null ? "welcome" : `download-${String(step.download_id)}`,
        enrolledAt: iso(step.enrolled_at),
        finishedAt: iso(step.finished_at),
        steps: [],
      };
      sequences.set(step.enrollment_id, sequence);
      if (step.subject === null || !step.created_at) continue;
      sequence.steps.push({
        subject: step.subject,
        queuedAt: step.created_at.toISOString(),
        status: step.status,
        messageId: step.message_id,
        sentAt: iso(step.sent_at),
      });
    }
    return {
      subscriber: {
        id: row.id,
        email: row.email,
        status: row.status,
        source: row.source,
        subscribedAt: row.subscribed_at.toISOString(),
        confirmedAt: iso(row.confirmed_at),
        unsubscribedAt: iso(row.unsubscribed_at),
        displayName: row.display_name,
      },
      preferences: {
        everything: row.follows_everything,
        frequency: row.frequency,
        updatedAt: iso(row.preferences_updated_at),
        topics: topics.rows.map((topic) => ({ slug: topic.slug, name: topic.name, followedAt: topic.created_at.toISOString() })),
        digests: digests.rows.map((digest) => ({ weekEnds: digest.week_ends.toISOString(), queuedAt: digest.created_at.toISOString() })),
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
      newsletters: newsletters.rows.map((newsletter) => ({
        subject: newsletter.subject,
        status: newsletter.status,
        messageId: newsletter.message_id,
        sentAt: iso(newsletter.sent_at),
        attempts: newsletter.attempts,
        lastError: newsletter.last_error,
      })),
      unsentEmails: unsent.rows.map((email) => ({
        kind: email.kind,
        status: email.status,
        messageId: email.message_id,
        queuedAt: email.created_at.toISOString(),
        attempts: email.attempts,
        lastError: email.last_error,
      })),
      emailEvents: events.rows.map((event) => ({
        type: event.type,
        provider: event.provider,
        reason: event.reason,
        occurredAt: event.occurred_at.toISOString(),
      })),
      sequences: [...sequences.values()],
      tags: (await subscriberTagsOf(tx, [row.id])).get(row.id) ?? [],
      pollAnswers: pollAnswers.rows.map((vote) => ({
        poll: vote.poll_id,
        question: vote.question,
        answer: vote.text,
        answeredAt: vote.answered_at.toISOString(),
        updatedAt: vote.updated_at.toISOString(),
      })),
      payments: payments.rows.map((payment) => ({
        kind: payment.kind,
        status: payment.status,
        amount: payment.amount,
        currency: payment.currency,
        item: payment.item_title,
        paidAt: payment.created_at.toISOString(),
        checkoutSessionId: payment.checkout_session_id,
      })),
      memberships: memberships.rows.map((membership) => ({
        status: membership.status,
        interval: membership.interval,
        amount: membership.amount,
        currency: membership.currency,
        startedAt: membership.created_at.toISOString(),
        endedAt: membership.ended_at?.toISOString() ?? null,
        currentPeriodEnd: membership.current_period_end?.toISOString() ?? null,
      })),
      readerSignIns: signIns.rows.map((signIn) => ({
        createdAt: signIn.created_at.toISOString(),
        expiresAt: signIn.expires_at.toISOString(),
        usedAt: iso(signIn.used_at),
      })),
      readerSessions: readerSessions.rows.map((session) => ({
        createdAt: session.created_at.toISOString(),
        lastSeenAt: session.last_seen_at.toISOString(),
        expiresAt: session.expires_at.toISOString(),
      })),
      comments: await exportReaderComments(tx, row.id),
      commentReplyNotices: row.comment_reply_notices,
      exportedAt: deps.now().toISOString(),
    };
  });
}

/**
 * Erases a subscriber for good: the row goes, and with it (ON DELETE CASCADE) every consent and
 * send record, the topics they follow and their weekly digests, their poll answers, every bounce or complaint heard about them, every email of theirs in the outbox, sent or still queued, and their
 * sequence enrollments with each step queued for them, and their reader sign-ins and sessions (signed out everywhere). Their clicks on tracked links stay, nameless (subscriber_id NULL). Their newsletter rows
 * stay, nameless (subscriber_id NULL), so a send's counts still add up — but first their
 * `last_error` goes: an SMTP reply often names the address ("550 <ann@example.com>: no such
 * user"). A test send to the address (nobody's row) goes too. One transaction, so the address is
 * left nowhere or the erase did not happen. 404 for an id that names nobody.
 */
export async function eraseSubscriber(deps: { db: SqlExecutor }, id: number): Promise<void> {
  await deps.db.transaction(async (tx: SqlQueryable) => {
    const { rows } = await tx.query<{ email: string }>("SELECT email FROM subscribers WHERE id = $1 FOR UPDATE", [id]);
    const person = rows[0];
    if (!person) throw new NotFoundError(subscriberGoneMessage);
    await tx.query("UPDATE newsletter_recipients SET last_error = NULL WHERE subscriber_id = $1 AND last_error IS NOT NULL", [id]);
    await tx.query("DELETE FROM outbox WHERE subscriber_id IS NULL AND lower(to_address) = lower($1)", [person.email]);
    // Payments stay for accounting (tax law), without the address (docs/decisions/0074-payments.md).
    await tx.query("UPDATE payments SET email = NULL WHERE lower(email) = lower($1)", [person.email]);
    // Decision 0073: their published comments stay as "Deleted reader"; the others go.
    await eraseReaderComments(tx, id);
    // A membership's row likewise (its Stripe ids stay: the subscription is Stripe's, decision 0085).
    await tx.query("UPDATE supporters SET email = NULL WHERE lower(email) = lower($1)", [person.email]);
    await tx.query("DELETE FROM subscribers WHERE id = $1", [id]);
  });
}
