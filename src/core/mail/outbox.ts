import { randomBytes } from "node:crypto";
import { groupCommit } from "../db/group-commit.ts";
import type { SqlQueryable } from "../db/sql-executor.ts";
import { ConflictError } from "../errors.ts";
import type { Clock } from "../shared/clock.ts";
import type { Site } from "../shared/site.ts";
import { claimLeased, giveUpAfterAge, runDeliveries, type DeliveryKind, type LeasedRow } from "./delivery-engine.ts";
import { isUnknownRecipient, pauseDelayMs, replyWithoutAddress } from "./delivery-failure.ts";
import type { EmailContent } from "./email-content.ts";
import type { Mailer } from "./mailer.ts";
import { placeholderAddressMessage, usesPlaceholderAddress } from "./postal-address.ts";
import type { OutboxKind } from "./outbox.schema.ts";

/**
 * The outbox (docs/decisions/0026-transactional-outbox.md): every transactional email is a row,
 * written in the transaction of the change that causes it, and delivered by `deliverOutbox` through
 * the delivery engine (delivery-engine.ts, decision 0044): claimed under a lease with `FOR UPDATE
 * SKIP LOCKED`, marked sent only after the SMTP server accepted it, one Message-ID for every hand-over.
 */
export type { OutboxKind };

/** A message to queue: who it goes to and what it is rendered from at delivery. */
export interface QueuedMail {
  kind: OutboxKind;
  /** Whose message it is (an erase deletes it); null for a test send. */
  subscriberId: number | null;
  to: string;
  consentId?: number | null;
  downloadId?: number | null;
  postId?: number | null;
  /** The owner's email about an outgoing webhook endpoint switched off. */
  webhookEndpointId?: number | null;
  /** The sequence step a test send is made from. */
  sequenceStepId?: number | null;
  /** A receipt's payment (src/core/payments/). */
  paymentId?: number | null;
  /** The reply a reply notice is about (src/core/comments/). */
  commentId?: number | null;
}

/** A claimed row, handed to the renderer and then to the SMTP server. */
export interface OutboxMessage extends LeasedRow {
  id: number;
  kind: OutboxKind;
  subscriberId: number | null;
  to: string;
  consentId: number | null;
  downloadId: number | null;
  postId: number | null;
  webhookEndpointId: number | null;
  sequenceStepId: number | null;
  paymentId: number | null;
  commentId: number | null;
  messageId: string;
  /** How many times the row was handed over, this time included. */
  attempts: number;
  createdAt: Date;
  /** The subscriber's status at the claim: a `bounced` or `complained` one gets nothing. */
  subscriberStatus?: string | null;
}

/** A queued message made ready to send: its content and any headers (List-Unsubscribe). */
export type RenderedMail = EmailContent & { headers?: Record<string, string> };

/** Makes a claimed row's message (from `kind` and the ids it names), at delivery. */
export type RenderQueued = (message: OutboxMessage) => Promise<RenderedMail>;

/**
 * Starts delivering what a request queued, once it has answered: the `deliverMail` port (a bounded
 * `deliverOutbox` run, built by the app) kept alive by Netlify's `waitUntil`. Without `waitUntil`
 * (`npm start`, a service called directly) nothing starts here: a timer drains the outbox.
 */
export interface DeliveryStart {
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  /** One bounded round of outbox delivery; never throws. */
  deliverMail?: (() => Promise<unknown>) | undefined;
}

export function startDelivery(deps: DeliveryStart): void {
  if (deps.waitUntil && deps.deliverMail) deps.waitUntil(deps.deliverMail());
}

/**
 * A condition the queueing statement checks itself, so the check and the write are one statement
 * (one round trip, whatever the outcome): `where` over the condition's own `$1…` parameters,
 * optionally after a `with` clause (a claim's UPDATE … RETURNING, say).
 */
export interface EnqueueCondition {
  with?: string;
  where: string;
  params: unknown[];
}

/**
 * Queues one message on `db` (the caller's transaction), if `onlyIf` holds: answers its
 * Message-ID, random and opaque (no row number or subscriber id in it) and fixed here for every
 * hand-over, or undefined when the condition kept it out.
 */
export async function enqueueMail(
  db: SqlQueryable,
  deps: { site: Site; now: Clock["now"] },
  mail: QueuedMail,
  onlyIf?: EnqueueCondition,
): Promise<string | undefined> {
  const messageId = deps.site.messageId(randomBytes(18).toString("base64url"));
  const values = [
    mail.kind,
    mail.subscriberId,
    mail.to,
    mail.consentId ?? null,
    mail.downloadId ?? null,
    mail.postId ?? null,
    messageId,
    deps.now(),
    mail.webhookEndpointId ?? null,
    mail.sequenceStepId ?? null,
    mail.paymentId ?? null,
    mail.commentId ?? null,
  ];
  const shifted = (sql: string) => sql.replace(/\$(\d+)/g, (_, n: string) => `$${String(Number(n) + values.length)}`);
  const { rows } = await db.query<{ message_id: string }>(
    `${onlyIf?.with ? `WITH ${shifted(onlyIf.with)} ` : ""}INSERT INTO outbox (kind, subscriber_id, to_address, consent_id, download_id, post_id, message_id, created_at, webhook_endpoint_id, sequence_step_id, payment_id, comment_id)
     SELECT $1::text, $2::integer, $3::text, $4::integer, $5::integer, $6::integer, $7::text, $8::timestamptz, $9::integer, $10::integer, $11::bigint, $12::integer
     ${onlyIf ? `WHERE ${shifted(onlyIf.where)}` : ""}
     RETURNING message_id`,
    [...values, ...(onlyIf?.params ?? [])],
  );
  return rows[0]?.message_id;
}

interface OutboxRow {
  kind: OutboxKind;
  subscriber_id: number | null;
  to_address: string;
  consent_id: number | null;
  download_id: number | null;
  post_id: number | null;
  webhook_endpoint_id: number | null;
  sequence_step_id: number | null;
  payment_id: string | number | null;
  comment_id: number | null;
  message_id: string;
  created_at: Date;
  subscriber_status: string | null;
}

/**
 * Hands up to `size` pending rows to the caller for `leaseMs` (the engine's claim): rows another
 * worker is claiming are passed over, rows under a live lease or waiting for a retry are left
 * alone, rows whose lease ran out (a dead worker) are claimable again, and nothing while paused.
 */
export async function claimOutbox(deps: { db: SqlQueryable; now: Clock["now"] }, size: number, leaseMs: number): Promise<OutboxMessage[]> {
  const rows = await claimLeased<OutboxRow>(
    deps,
    {
      table: "outbox",
      // A paused outbox (the provider failing as a whole) is left alone until its wait is over.
      due: "NOT EXISTS (SELECT 1 FROM outbox_pause WHERE paused_until > $1)",
      pick: ["subscriber_id"],
      join: "LEFT JOIN subscribers s ON s.id = picked.subscriber_id",
      returning:
        "q.kind, q.subscriber_id, q.to_address, q.consent_id, q.download_id, q.post_id, q.webhook_endpoint_id, q.sequence_step_id, q.payment_id, q.comment_id, q.message_id, q.created_at, s.status AS subscriber_status",
    },
    size,
    leaseMs,
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    subscriberId: row.subscriber_id,
    to: row.to_address,
    consentId: row.consent_id,
    downloadId: row.download_id,
    postId: row.post_id,
    webhookEndpointId: row.webhook_endpoint_id,
    sequenceStepId: row.sequence_step_id,
    paymentId: row.payment_id === null ? null : Number(row.payment_id),
    commentId: row.comment_id,
    messageId: row.message_id,
    attempts: row.attempts,
    leaseUntil: row.leaseUntil,
    createdAt: row.created_at,
    subscriberStatus: row.subscriber_status,
  }));
}

/**
 * Marks a row sent — only once the SMTP server accepted it — and, for a subscriber's message,
 * records it for their personal export (kind, subject, Message-ID, time). Marks that come in while
 * one is being written go in the next statement together (group commit, decision 0043): each caller
 * still waits for its own row, so the window in which a crash would send a message again is one
 * statement longer at most, not a batch.
 */
export async function markOutboxSent(deps: { db: SqlQueryable; now: Clock["now"] }, id: number, subject: string): Promise<void> {
  await writeSentMarks(deps.db, { id, subject, at: deps.now() });
}

const writeSentMarks = groupCommit<{ id: number; subject: string; at: Date }>(async (db, marks) => {
  await db.query(
    `WITH marked AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::timestamptz[]) AS m(id, subject, at)),
     done AS (
       UPDATE outbox o SET status = 'sent', sent_at = m.at, lease_until = NULL, last_error = NULL
         FROM marked m
        WHERE o.id = m.id AND o.status = 'pending'
       RETURNING o.subscriber_id, o.kind, o.message_id, o.download_id, m.subject, m.at
     )
     INSERT INTO subscriber_emails (subscriber_id, kind, subject, message_id, sent_at, download_id)
     SELECT subscriber_id, kind, subject, message_id, at, download_id FROM done WHERE subscriber_id IS NOT NULL AND kind NOT IN ('newsletter-test', 'sequence-test')`,
    [marks.map((mark) => mark.id), marks.map((mark) => mark.subject), marks.map((mark) => mark.at)],
  );
});

/** What delivering the outbox needs: the database, a mailer and the clock (its `sleep` renews a hung hand-over's lease). */
export interface OutboxDeps {
  db: SqlQueryable;
  mail: Mailer;
  now: Clock["now"];
  clock?: Clock | undefined;
  /**
   * Production (set by the app from its configuration): mail waits while the footer's postal
   * address is still the seeded placeholder. Unset: locally the placeholder goes out.
   */
  production?: boolean;
  /** Every provider pause's length, instead of 1 minute then 2 (`pauseDelayMs`). Unset in production. */
  providerPauseMs?: number | undefined;
  /** A recipient refused as unknown (5.1.x): the subscriber is `bounced` (the app's hook records it, src/app/mail-kinds.ts). */
  onUnknownRecipient?: (bounce: { ref: string; subscriberId: number; messageId: string; reason: string }) => Promise<unknown>;
}

/**
 * Nothing goes to someone whose address bounced or who marked our mail as spam, until they sign
 * up again through the double opt-in (which makes them `pending`, so its confirmation goes out).
 * The row fails with this reason, so the owner sees why it was not sent.
 */
export function suppressedMessage(status: string | null | undefined): string | undefined {
  if (status === "bounced") return "Not sent: this address bounced, so nothing goes to it until its owner signs up again";
  if (status === "complained") return "Not sent: this person marked our email as spam, so nothing goes to them until they sign up again";
  return undefined;
}

/** The outbox's pause, while there is one: why, and when a run tries the provider again. */
export interface OutboxPause {
  reason: string;
  until: Date;
  since: Date;
}

export async function outboxPause(db: SqlQueryable): Promise<OutboxPause | null> {
  const { rows } = await db.query<{ reason: string; paused_until: Date | string; paused_at: Date | string }>(
    "SELECT reason, paused_until, paused_at FROM outbox_pause",
  );
  const row = rows[0];
  return row ? { reason: row.reason, until: new Date(row.paused_until), since: new Date(row.paused_at) } : null;
}

/**
 * Pauses the whole outbox: no run claims before `until` (1 minute, then 2 for each pause in a row:
 * `pauseDelayMs`). Several messages failing at once pause it once: a pause still running is kept.
 * `fixedWait` (the placeholder address) waits no longer than that: the owner's fix is seen at once.
 */
async function pauseOutbox(deps: Pick<OutboxDeps, "db" | "now" | "providerPauseMs">, reason: string, fixedWait?: number): Promise<void> {
  const now = deps.now();
  const pauses = (await deps.db.query<{ pauses: number }>("SELECT pauses FROM outbox_pause")).rows[0]?.pauses ?? 0;
  const until = new Date(now.getTime() + (fixedWait ?? pauseDelayMs(pauses, deps.providerPauseMs)));
  await deps.db.query(
    `INSERT INTO outbox_pause (id, reason, paused_until, pauses, paused_at) VALUES (true, $1, $2, 1, $3)
     ON CONFLICT (id) DO UPDATE SET reason = EXCLUDED.reason, paused_until = EXCLUDED.paused_until, pauses = outbox_pause.pauses + 1
      WHERE outbox_pause.paused_until <= $3`,
    // The reply may name the recipient whose message met it: the pause keeps no address.
    [replyWithoutAddress(reason), until, now],
  );
}

/** A message went through: the provider is back, the pause (if any) is over and its backoff starts over. */
async function resumeOutbox(db: SqlQueryable): Promise<void> {
  await db.query("DELETE FROM outbox_pause");
}

export interface OutboxOptions {
  /** Messages handed to the SMTP server at once (the transport's pool size). Default 5. */
  concurrency?: number;
  /**
   * How long a claimed row is the worker's. Default 2 minutes: a worker claims only as many rows
   * as it sends at once, so a lease covers about one hand-over; the engine renews it for a slow one.
   */
  leaseMs?: number;
  /** Transient failures are retried until a message is this old, then it fails. Default 24 hours. */
  retryForMs?: number;
  /** Stop claiming once this time has passed (a function's budget). */
  stopClaimingAt?: Date;
}

export const outboxRetryForMs = 24 * 60 * 60 * 1000;

export interface OutboxRun {
  sent: number;
  failed: number;
  retried: number;
  /** Set when the run paused the outbox (or found it paused): the reason the dashboard shows. */
  paused?: string;
}

/** The outbox as a kind of delivery (delivery-engine.ts): rendered at delivery, retried for 24 hours, one pause for all. */
function outboxKind(deps: OutboxDeps, render: RenderQueued, retryForMs: number): DeliveryKind<OutboxMessage, string> {
  return {
    table: "outbox",
    claim: (size, leaseMs) => claimOutbox(deps, size, leaseMs),
    async deliver(message) {
      const suppressed = suppressedMessage(message.subscriberStatus);
      if (suppressed) throw new ConflictError(suppressed);
      const mail = await render(message);
      await deps.mail.send({ to: message.to, ...mail, messageId: message.messageId });
      return mail.subject;
    },
    markSent: (message, subject) => markOutboxSent(deps, message.id, subject),
    retry: giveUpAfterAge(retryForMs),
    address: (message) => message.to,
    async onUnknownRecipient(message, failure) {
      if (!isUnknownRecipient(failure) || message.subscriberId === null) return;
      await deps.onUnknownRecipient?.({
        ref: `outbox:${String(message.id)}`,
        subscriberId: message.subscriberId,
        messageId: message.messageId,
        reason: failure.reason,
      });
    },
    pause: {
      now: async () => {
        const pause = await outboxPause(deps.db);
        return pause && pause.until > deps.now() ? pause.reason : null;
      },
      start: (reason) => pauseOutbox(deps, reason),
      end: () => resumeOutbox(deps.db),
    },
    async holdBack() {
      if (!deps.production || !(await usesPlaceholderAddress(deps))) return undefined;
      await pauseOutbox(deps, placeholderAddressMessage, 0);
      return placeholderAddressMessage;
    },
  };
}

/**
 * One bounded run over the outbox: claims and delivers until nothing is claimable now (rows
 * waiting for a retry or leased by another worker are left for a later run) or `stopClaimingAt`
 * passes. Any number of runs may overlap (requests' own runs, the timer, the Scheduled Function):
 * each row goes to one of them, and a settled row is never sent again. A worker claims only as many
 * rows as it sends at once.
 */
export async function deliverOutbox(deps: OutboxDeps, render: RenderQueued, options: OutboxOptions = {}): Promise<OutboxRun> {
  const concurrency = Math.max(1, options.concurrency ?? 5);
  const { sent, failed, retried, paused } = await runDeliveries(deps, outboxKind(deps, render, options.retryForMs ?? outboxRetryForMs), {
    concurrency,
    batchSize: concurrency,
    leaseMs: options.leaseMs ?? 120_000,
    stopClaimingAt: options.stopClaimingAt,
  });
  return paused === undefined ? { sent, failed, retried } : { sent, failed, retried, paused };
}
