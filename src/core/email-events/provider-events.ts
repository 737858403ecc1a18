import { z } from "zod";

/** The kinds of event that change something: a bounce for good, one for now, a spam complaint, a delivery. */
export type EmailEventType = "hard_bounce" | "soft_bounce" | "complaint" | "delivered";

export const emailEventProviders = ["postmark", "resend", "mailgun", "sendgrid", "ses"] as const;
export type EmailEventProvider = (typeof emailEventProviders)[number];

/**
 * One provider event, read from its payload: who, what, why and when, the provider's id for the
 * event (a repeat counts once), and the message it is about — our Message-ID where the provider
 * gives it back, else the provider's own id (the decision record says which, per provider).
 */
export interface ProviderEvent {
  eventId: string;
  type: EmailEventType;
  email: string;
  /** Our Message-ID as we keep it (`<id@host>`), when the payload carries it. */
  messageId?: string | undefined;
  /** The newsletter send named by the message's own `Feedback-ID`, when the payload gives its headers back. */
  sendId?: number | undefined;
  reason: string;
  occurredAt: Date;
}

/** `<id@host>` or `id@host` → `<id@host>`, the form newsletter_recipients.message_id keeps. */
export const messageIdOf = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? `<${value.trim().replace(/^<|>$/g, "")}>` : undefined;

const dateOr = (value: unknown, fallback: Date): Date => {
  const date = typeof value === "number" ? new Date(value * 1000) : typeof value === "string" ? new Date(value) : fallback;
  return Number.isNaN(date.getTime()) ? fallback : date;
};

const text = (...values: unknown[]) =>
  values
    .filter((value) => typeof value === "string" && value.trim() !== "")
    .join(" — ")
    .slice(0, 500);

// Only what is read is checked; providers add fields freely (SES says so), so the rest passes.
const loose = <Shape extends z.ZodRawShape>(shape: Shape) => z.looseObject(shape);

// Postmark's IDs are 64-bit integers: read as the digits sent (see `parsePostmarkJson`), never as a
// JavaScript number, which rounds two IDs above 2^53 to one.
const postmarkSchema = loose({
  RecordType: z.string(),
  ID: z.union([z.string(), z.number().transform(String)]).optional(),
  Type: z.string().optional(),
  TypeCode: z.number().optional(),
  // Bounces and complaints name the address `Email`; a Delivery names it `Recipient`.
  Email: z.string().optional(),
  Recipient: z.string().optional(),
  MessageID: z.string().optional(),
  Description: z.string().optional(),
  Details: z.string().optional(),
  BouncedAt: z.string().optional(),
  DeliveredAt: z.string().optional(),
});

/** A Postmark body with each integer beyond 2^53 kept as the digits sent (Postmark's IDs are int64). */
export function parsePostmarkJson(body: string): unknown {
  // The reviver's third argument (JSON.parse source text access, Node 22+) holds a number's digits.
  const keepDigits = (_key: string, value: unknown, context?: { source?: string }) =>
    typeof value === "number" && !Number.isSafeInteger(value) && context?.source ? context.source : value;
  return JSON.parse(body, keepDigits) as unknown;
}

// Postmark's bounce types that mean the address is gone, and those that may pass.
const postmarkHard = new Set(["HardBounce", "BadEmailAddress", "ManuallyDeactivated"]);
const postmarkSoft = new Set(["SoftBounce", "Transient", "DnsError"]);

/**
 * Postmark: one event a request, `RecordType` Bounce (by `Type`), SpamComplaint, or Delivery. A
 * bounce or complaint is known by its `ID`; a Delivery has none, and is one per message and
 * recipient (`MessageID` and `Recipient`).
 */
export function postmarkEvents(body: unknown, now: Date): ProviderEvent[] {
  const event = postmarkSchema.parse(body);
  const email = event.Email ?? event.Recipient;
  const id = event.ID ?? (event.MessageID && email ? `${event.MessageID}:${email.toLowerCase()}` : undefined);
  if (!email || !id) return [];
  const base = {
    eventId: `${event.RecordType}:${id}`,
    email,
    messageId: undefined,
    occurredAt: dateOr(event.BouncedAt ?? event.DeliveredAt, now),
  };
  if (event.RecordType === "SpamComplaint" || event.Type === "SpamComplaint") {
    return [{ ...base, type: "complaint", reason: text(event.Description, "Marked as spam") }];
  }
  if (event.RecordType === "Delivery") return [{ ...base, type: "delivered", reason: "" }];
  if (event.RecordType !== "Bounce" || !event.Type) return [];
  const type = postmarkHard.has(event.Type) ? "hard_bounce" : postmarkSoft.has(event.Type) ? "soft_bounce" : undefined;
  return type ? [{ ...base, type, reason: text(event.Type, event.Details ?? event.Description) }] : [];
}

const resendSchema = loose({
  type: z.string(),
  created_at: z.string().optional(),
  data: loose({
    email_id: z.string().optional(),
    to: z.union([z.array(z.string()), z.string()]),
    created_at: z.string().optional(),
    headers: z.array(loose({ name: z.string(), value: z.string() })).optional(),
    bounce: loose({ message: z.string().optional(), type: z.string().optional(), subType: z.string().optional() }).optional(),
  }),
});

/**
 * Resend (Svix): `email.bounced` is a permanent rejection, unless its `bounce.type` says Transient;
 * `email.complained` a complaint; `email.delivered`. The event id is Svix's `svix-id`.
 */
export function resendEvents(body: unknown, svixId: string, now: Date): ProviderEvent[] {
  const event = resendSchema.parse(body);
  const recipients = Array.isArray(event.data.to) ? event.data.to : [event.data.to];
  const messageHeader = event.data.headers?.find((header) => header.name.toLowerCase() === "message-id")?.value;
  const bounceType = event.data.bounce?.type?.toLowerCase();
  const type: EmailEventType | undefined =
    event.type === "email.bounced"
      ? bounceType === "transient"
        ? "soft_bounce"
        : "hard_bounce"
      : event.type === "email.complained"
        ? "complaint"
        : event.type === "email.delivered"
          ? "delivered"
          : undefined;
  if (!type) return [];
  return recipients.map((email, index) => ({
    eventId: `${svixId}:${String(index)}`,
    type,
    email,
    messageId: messageIdOf(messageHeader),
    reason: type === "complaint" ? "Marked as spam" : text(event.data.bounce?.message, event.data.bounce?.subType),
    occurredAt: dateOr(event.created_at ?? event.data.created_at, now),
  }));
}

export const mailgunSchema = loose({
  signature: loose({ timestamp: z.union([z.string(), z.number()]), token: z.string(), signature: z.string() }),
  "event-data": loose({
    id: z.string(),
    event: z.string(),
    severity: z.string().optional(),
    recipient: z.string(),
    timestamp: z.number().optional(),
    reason: z.string().optional(),
    message: loose({ headers: loose({ "message-id": z.string().optional() }).optional() }).optional(),
    "delivery-status": loose({ message: z.string().optional(), description: z.string().optional(), code: z.unknown().optional() }).optional(),
  }),
});

/** Mailgun: `failed` with `severity` permanent or temporary, `complained`, `delivered`; the id is the signature's token. */
export function mailgunEvents(event: z.output<typeof mailgunSchema>["event-data"], token: string, now: Date): ProviderEvent[] {
  const type: EmailEventType | undefined =
    event.event === "failed"
      ? event.severity === "permanent"
        ? "hard_bounce"
        : "soft_bounce"
      : event.event === "complained"
        ? "complaint"
        : event.event === "delivered"
          ? "delivered"
          : undefined;
  if (!type) return [];
  const status = event["delivery-status"];
  return [
    {
      eventId: token,
      type,
      email: event.recipient,
      messageId: messageIdOf(event.message?.headers?.["message-id"]),
      reason: type === "complaint" ? "Marked as spam" : text(status?.message, status?.description, event.reason),
      occurredAt: dateOr(event.timestamp, now),
    },
  ];
}

const sendgridSchema = z.array(
  loose({
    email: z.string(),
    event: z.string(),
    sg_event_id: z.string(),
    timestamp: z.number().optional(),
    "smtp-id": z.string().optional(),
    type: z.string().optional(),
    reason: z.string().optional(),
    status: z.string().optional(),
  }),
);

/** SendGrid: an array; `bounce` (type `bounce` for good, `blocked` for now), `spamreport`, `delivered`. */
export function sendgridEvents(body: unknown, now: Date): ProviderEvent[] {
  return sendgridSchema.parse(body).flatMap((event): ProviderEvent[] => {
    const type: EmailEventType | undefined =
      event.event === "bounce"
        ? event.type === "blocked"
          ? "soft_bounce"
          : "hard_bounce"
        : event.event === "spamreport"
          ? "complaint"
          : event.event === "delivered"
            ? "delivered"
            : undefined;
    if (!type) return [];
    return [
      {
        eventId: event.sg_event_id,
        type,
        email: event.email,
        messageId: messageIdOf(event["smtp-id"]),
        reason: type === "complaint" ? "Marked as spam" : text(event.status, event.reason),
        occurredAt: dateOr(event.timestamp, now),
      },
    ];
  });
}

const sesSchema = loose({
  notificationType: z.string().optional(),
  eventType: z.string().optional(),
  mail: loose({
    messageId: z.string().optional(),
    headers: z.array(loose({ name: z.string(), value: z.string() })).optional(),
    commonHeaders: loose({ messageId: z.string().optional() }).optional(),
  }),
  bounce: loose({
    bounceType: z.string(),
    bounceSubType: z.string().optional(),
    timestamp: z.string().optional(),
    bouncedRecipients: z.array(loose({ emailAddress: z.string(), status: z.string().optional(), diagnosticCode: z.string().optional() })),
  }).optional(),
  complaint: loose({
    timestamp: z.string().optional(),
    complaintFeedbackType: z.string().optional(),
    complainedRecipients: z.array(loose({ emailAddress: z.string() })),
  }).optional(),
  delivery: loose({ timestamp: z.string().optional(), recipients: z.array(z.string()) }).optional(),
});

/** The send a newsletter's `Feedback-ID` names (`<send>:newsletter:bulk:<host>`, see `newsletterFeedbackId`). */
export function sendOfFeedbackId(value: string | undefined): number | undefined {
  const match = value ? /^(\d{1,9}):newsletter:bulk:/.exec(value.trim()) : null;
  return match ? Number(match[1]) : undefined;
}

/** SES's own Message-IDs (`<…@email.amazonses.com>`, `<…@eu-west-1.amazonses.com>`): never one of ours. */
const sesOwnMessageId = /@([a-z0-9-]+\.)*amazonses\.com>$/i;

/**
 * The message an SES event is about. SES sets its own Message-ID on what it sends, and
 * `commonHeaders.messageId` is that one; `mail.headers` (when "Include original headers" is on) is
 * the message as we handed it over: our Message-ID, if SES left it there, and our `Feedback-ID`.
 */
function sesMessage(mail: z.output<typeof sesSchema>["mail"]): Pick<ProviderEvent, "messageId" | "sendId"> {
  const header = (name: string) => mail.headers?.filter((entry) => entry.name.toLowerCase() === name).map((entry) => entry.value) ?? [];
  const ours = [...header("message-id"), mail.commonHeaders?.messageId].map(messageIdOf).find((id) => id !== undefined && !sesOwnMessageId.test(id));
  return { messageId: ours, sendId: sendOfFeedbackId(header("feedback-id")[0]) };
}

/**
 * SES (the SNS message's `Message`): `Bounce` (Permanent for good; Transient and Undetermined for
 * now), `Complaint`, `Delivery`, one event per recipient. The id is SNS's MessageId and the address.
 */
export function sesEvents(message: unknown, snsMessageId: string, now: Date): ProviderEvent[] {
  const event = sesSchema.parse(message);
  const kind = event.notificationType ?? event.eventType;
  const about = sesMessage(event.mail);
  const one = (email: string, type: EmailEventType, reason: string, at: string | undefined): ProviderEvent => ({
    eventId: `${snsMessageId}:${email.toLowerCase()}`,
    type,
    email,
    ...about,
    reason,
    occurredAt: dateOr(at, now),
  });
  if (kind === "Bounce" && event.bounce) {
    const { bounce } = event;
    const type = bounce.bounceType === "Permanent" ? "hard_bounce" : "soft_bounce";
    return bounce.bouncedRecipients.map((recipient) =>
      one(recipient.emailAddress, type, text(recipient.diagnosticCode ?? recipient.status, bounce.bounceSubType), bounce.timestamp),
    );
  }
  if (kind === "Complaint" && event.complaint) {
    const { complaint } = event;
    return complaint.complainedRecipients.map((recipient) =>
      one(recipient.emailAddress, "complaint", text(complaint.complaintFeedbackType, "Marked as spam"), complaint.timestamp),
    );
  }
  if (kind === "Delivery" && event.delivery) {
    return event.delivery.recipients.map((email) => one(email, "delivered", "", event.delivery?.timestamp));
  }
  return [];
}
