import { recordWebhookEvent, type WebhookRecordDeps } from "../webhooks/webhook-events.ts";
import type { X509Certificate } from "node:crypto";
import { z } from "zod";
import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { NotFoundError, UnauthorizedError, ValidationError } from "../errors.ts";
import { replyWithoutAddress } from "../mail/delivery-failure.ts";
import type { Clock } from "../shared/clock.ts";
import {
  mailgunEvents,
  mailgunSchema,
  parsePostmarkJson,
  postmarkEvents,
  resendEvents,
  sendgridEvents,
  sesEvents,
  type EmailEventProvider,
  type EmailEventType,
  type ProviderEvent,
} from "./provider-events.ts";
import { pauseIfOverThresholds } from "./send-health.ts";
import { isSnsUrl, verifySnsMessage, type SnsEnvelope, type SnsFetch } from "./sns-signature.ts";
import { verifyMailgun, verifyPostmark, verifyResend, verifySendgrid } from "./webhook-signatures.ts";

/** Each provider's webhook secret, from the configuration; a provider without one is not listened to (404). */
export interface WebhookSecrets {
  /** POSTMARK_WEBHOOK_AUTH: `user:password`. */
  postmark?: string | undefined;
  /** RESEND_WEBHOOK_SECRET: `whsec_…`. */
  resend?: string | undefined;
  /** MAILGUN_WEBHOOK_SIGNING_KEY. */
  mailgun?: string | undefined;
  /** SENDGRID_WEBHOOK_PUBLIC_KEY (base64, as Mail Settings shows it). */
  sendgrid?: string | undefined;
  /** SES_SNS_TOPIC_ARNS: the topics whose notifications are believed. */
  sesTopicArns?: readonly string[] | undefined;
}

/** What hearing bounces and complaints needs. */
export interface EmailEventsDeps {
  db: SqlExecutor;
  now: Clock["now"];
  webhooks: WebhookSecrets;
  /** SNS signing certificates by URL (fetched from SNS's hosts only, then kept). */
  snsCertificate: (url: URL) => Promise<X509Certificate>;
  /** GETs a SubscribeURL (SNS's hosts only) to confirm a subscription. */
  snsFetch: SnsFetch;
}

/** A webhook request as it came: its headers and its raw body (signatures are over the bytes). */
export interface WebhookRequest {
  headers: Headers;
  body: string;
}

export const badSignatureMessage = "The webhook's signature is missing or does not match";

const parseJson = (body: string): unknown => parseJsonWith(body, (text) => JSON.parse(text) as unknown);

function parseJsonWith(body: string, parse: (text: string) => unknown): unknown {
  try {
    return parse(body);
  } catch {
    throw new ValidationError("The request body must be valid JSON");
  }
}

function refuseUnless(ok: boolean): void {
  if (!ok) throw new UnauthorizedError(badSignatureMessage);
}

const snsEnvelopeSchema = z.looseObject({
  Type: z.string(),
  MessageId: z.string(),
  TopicArn: z.string(),
  Message: z.string(),
  Timestamp: z.string(),
  SignatureVersion: z.string(),
  Signature: z.string(),
  SigningCertURL: z.string(),
  Subject: z.string().nullish(),
  SubscribeURL: z.string().optional(),
  Token: z.string().optional(),
});

/** SES through SNS: the signature, the topic, then a subscription to confirm or a notification to read. */
async function sesWebhook(deps: EmailEventsDeps, topics: readonly string[], body: string, now: Date): Promise<ProviderEvent[]> {
  const parsed = snsEnvelopeSchema.safeParse(parseJson(body));
  refuseUnless(parsed.success);
  const envelope = parsed.data as SnsEnvelope;
  // No age limit: SNS retries a notification it could not hand over with its first Timestamp and
  // signature, for up to an hour or more, so an old one is SNS's retry. Its signature proves SNS
  // sent it, and its MessageId (in each event's id) makes a repeat count once.
  refuseUnless(await verifySnsMessage(envelope, deps.snsCertificate));
  // Signed by SNS, but for anyone's topic: only the owner's topics are heard.
  refuseUnless(topics.includes(envelope.TopicArn));
  if (envelope.Type === "SubscriptionConfirmation") {
    const subscribe = isSnsUrl(envelope.SubscribeURL);
    if (!subscribe) throw new ValidationError("SubscribeURL is not an Amazon SNS address");
    await deps.snsFetch(subscribe);
    return [];
  }
  if (envelope.Type !== "Notification") return [];
  return sesEvents(parseJson(envelope.Message), envelope.MessageId, now);
}

/**
 * A provider's webhook: checked its documented way before anything is read (401, nothing changed,
 * when it fails), then each bounce, complaint or delivery in it recorded once. 404 for a provider
 * whose secret is not set; 400 for a body that is not JSON or not the provider's shape.
 */
export async function receiveEmailEvents(deps: EmailEventsDeps, provider: EmailEventProvider, request: WebhookRequest): Promise<void> {
  const { webhooks } = deps;
  const now = deps.now();
  const notListening = () => new NotFoundError("Not found");
  let events: ProviderEvent[];
  switch (provider) {
    case "postmark": {
      if (!webhooks.postmark) throw notListening();
      refuseUnless(verifyPostmark(request.headers.get("authorization"), webhooks.postmark));
      events = postmarkEvents(parseJsonWith(request.body, parsePostmarkJson), now);
      break;
    }
    case "resend": {
      if (!webhooks.resend) throw notListening();
      refuseUnless(verifyResend(request.body, request.headers, webhooks.resend, now));
      events = resendEvents(parseJson(request.body), request.headers.get("svix-id") ?? "", now);
      break;
    }
    case "mailgun": {
      if (!webhooks.mailgun) throw notListening();
      const body = parseJson(request.body);
      const signature = (body as { signature?: Record<string, unknown> } | null)?.signature;
      refuseUnless(verifyMailgun(typeof signature === "object" ? signature : undefined, webhooks.mailgun, now));
      // Mailgun signs the timestamp and token, not the event: its token (one a request, the same in
      // a retry) is the event's id, so a signature replayed with another event in it changes nothing.
      const parsed = mailgunSchema.parse(body);
      events = mailgunEvents(parsed["event-data"], parsed.signature.token, now);
      break;
    }
    case "sendgrid": {
      if (!webhooks.sendgrid) throw notListening();
      refuseUnless(verifySendgrid(request.body, request.headers, webhooks.sendgrid, now));
      events = sendgridEvents(parseJson(request.body), now);
      break;
    }
    case "ses": {
      if (!webhooks.sesTopicArns?.length) throw notListening();
      events = await sesWebhook(deps, webhooks.sesTopicArns, request.body, now);
      break;
    }
  }
  const sends = new Set<number>();
  for (const event of events) {
    const sendId = await recordEmailEvent(deps, provider, event);
    // Only what the pause rule counts can pass a threshold: a delivery or a soft bounce cannot.
    if (sendId !== undefined && (event.type === "hard_bounce" || event.type === "complaint")) sends.add(sendId);
  }
  for (const sendId of sends) await pauseIfOverThresholds(deps, sendId);
}

interface Attribution {
  subscriber_id: number | null;
  send_id: number | null;
  message_ref: string | null;
}

/**
 * Who an event is about, and which send: the recipient row our Message-ID names, or the send its
 * `Feedback-ID` names (SES replaces the Message-ID); without either (a provider that gives back
 * only its own id), the subscriber by address and the last newsletter sent to them before the event.
 */
async function attribute(db: SqlQueryable, event: ProviderEvent): Promise<Attribution> {
  if (event.messageId || event.sendId !== undefined) {
    const { rows } = await db.query<Attribution>(
      `SELECT s.id AS subscriber_id, r.send_id, coalesce(r.message_id, $1::text) AS message_ref
         FROM subscribers s
         LEFT JOIN LATERAL (
           SELECT r.send_id, r.message_id FROM newsletter_recipients r
            WHERE r.subscriber_id = s.id AND (r.message_id = $1::text OR r.send_id = $3::int)
            ORDER BY r.message_id = $1::text DESC NULLS LAST LIMIT 1
         ) r ON true
        WHERE lower(s.email) = lower($2)
        LIMIT 1`,
      [event.messageId ?? null, event.email, event.sendId ?? null],
    );
    return rows[0] ?? { subscriber_id: null, send_id: null, message_ref: event.messageId ?? null };
  }
  const { rows } = await db.query<Attribution>(
    `SELECT s.id AS subscriber_id, last.send_id, last.message_id AS message_ref
       FROM subscribers s
       LEFT JOIN LATERAL (
         SELECT r.send_id, r.message_id FROM newsletter_recipients r
          WHERE r.subscriber_id = s.id AND r.status = 'sent' AND r.sent_at <= $2
          ORDER BY r.sent_at DESC LIMIT 1
       ) last ON true
      WHERE lower(s.email) = lower($1)`,
    [event.email, event.occurredAt],
  );
  return rows[0] ?? { subscriber_id: null, send_id: null, message_ref: null };
}

/** Soft bounces in a row (no delivery between, none before the last confirmation) within this long make a bounce. */
export const softBounceWindowMs = 30 * 24 * 60 * 60 * 1000;
export const softBouncesToSuppress = 3;

/**
 * Records one event once (a repeat of the provider's event id changes nothing) and what it does to
 * its subscriber: a hard bounce makes them `bounced`, a complaint `complained`, the third soft
 * bounce in a row within 30 days `bounced`. Answers the send it belongs to, when it is news.
 */
export async function recordEmailEvent(
  deps: { db: SqlExecutor; now: Clock["now"] },
  provider: EmailEventProvider | "smtp",
  event: ProviderEvent,
  known?: Attribution,
): Promise<number | undefined> {
  return deps.db.transaction(async (tx) => {
    const who = known ?? (await attribute(tx, event));
    // The reply may name the address: the event keeps the words without it.
    const reason = replyWithoutAddress(event.reason).slice(0, 500);
    const { rows } = await tx.query(
      `INSERT INTO email_events (provider, event_id, type, subscriber_id, send_id, message_ref, reason, occurred_at, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (provider, event_id) DO NOTHING RETURNING id`,
      [provider, event.eventId, event.type, who.subscriber_id, who.send_id, who.message_ref, reason, event.occurredAt, deps.now()],
    );
    if (rows.length === 0) return undefined;
    if (who.subscriber_id !== null) await applyToSubscriber(tx, deps, who.subscriber_id, event.type, reason, event.occurredAt, provider);
    return who.send_id ?? undefined;
  });
}

async function applyToSubscriber(
  db: SqlQueryable,
  hooks: WebhookRecordDeps,
  subscriberId: number,
  type: EmailEventType,
  reason: string,
  at: Date,
  provider: string,
): Promise<void> {
  const why = (what: string) => `${what} (${provider}): ${reason}`.slice(0, 600);
  if (type === "complaint") {
    // Whatever they were: someone who called our mail spam gets none, even after unsubscribing.
    const { rows } = await db.query<{ id: number; email: string; status: "complained" }>(
      "UPDATE subscribers SET status = 'complained', suppressed_reason = $2, suppressed_at = $3 WHERE id = $1 AND status <> 'complained' RETURNING id, email, status",
      [subscriberId, why("Marked a message as spam"), at],
    );
    if (rows[0]) await recordWebhookEvent(db, hooks, "subscriber.complained", rows[0], subscriberId);
    return;
  }
  if (type === "hard_bounce") {
    await suppressBounced(db, hooks, subscriberId, why("Hard bounce"), at);
    return;
  }
  if (type !== "soft_bounce") return;
  const { rows } = await db.query<{ soft: number }>(
    `SELECT count(DISTINCT coalesce(e.message_ref, e.event_id))::int AS soft
       FROM email_events e JOIN subscribers s ON s.id = e.subscriber_id
      WHERE e.subscriber_id = $1 AND e.type = 'soft_bounce' AND e.occurred_at > $2
        AND (s.confirmed_at IS NULL OR e.occurred_at >= s.confirmed_at)
        AND e.occurred_at > coalesce((SELECT max(d.occurred_at) FROM email_events d WHERE d.subscriber_id = $1 AND d.type = 'delivered'), '-infinity'::timestamptz)`,
    [subscriberId, new Date(at.getTime() - softBounceWindowMs)],
  );
  if ((rows[0]?.soft ?? 0) >= softBouncesToSuppress) {
    await suppressBounced(db, hooks, subscriberId, why(`${String(softBouncesToSuppress)} soft bounces in a row within 30 days, the last`), at);
  }
}

/** Someone receiving mail (or waiting to confirm) whose address bounced: `bounced`; others keep their status. */
async function suppressBounced(db: SqlQueryable, hooks: WebhookRecordDeps, subscriberId: number, reason: string, at: Date): Promise<void> {
  const { rows } = await db.query<{ id: number; email: string; status: "bounced" }>(
    "UPDATE subscribers SET status = 'bounced', suppressed_reason = $2, suppressed_at = $3 WHERE id = $1 AND status IN ('active', 'pending') RETURNING id, email, status",
    [subscriberId, reason, at],
  );
  if (rows[0]) await recordWebhookEvent(db, hooks, "subscriber.bounced", rows[0], subscriberId);
}

/**
 * An SMTP server refused a recipient at send time as unknown (5.1.x): the same as a hard bounce
 * heard later. `ref` names the message (`newsletter:<row>` or `outbox:<row>`), so a retry refused
 * again counts once. Answers the send it belongs to.
 */
export async function recordSmtpBounce(
  deps: { db: SqlExecutor; now: Clock["now"] },
  bounce: { ref: string; subscriberId: number; sendId: number | null; messageId: string; reason: string },
): Promise<number | undefined> {
  return recordEmailEvent(
    deps,
    "smtp",
    { eventId: bounce.ref, type: "hard_bounce", email: "", messageId: bounce.messageId, reason: bounce.reason, occurredAt: deps.now() },
    { subscriber_id: bounce.subscriberId, send_id: bounce.sendId, message_ref: bounce.messageId },
  );
}
