import { z } from "zod";

/**
 * Every kind of mail the outbox queues (the database's `outbox_kind_check` holds the same list):
 * one place, so the dashboard's list and its labels know each kind a feature adds.
 */
export const outboxKinds = [
  "confirmation",
  "welcome",
  "download",
  "newsletter-test",
  "sequence",
  "webhook-disabled",
  "digest",
  "sequence-test",
  "receipt",
  "reader-sign-in",
  "comments-waiting",
  "comment-reply",
] as const;

export type OutboxKind = (typeof outboxKinds)[number];

/** One queued transactional email the dashboard lists: still pending, or failed with the last reply. */
export const outboxMessageSchema = z.object({
  id: z.number().int(),
  kind: z.enum(outboxKinds),
  to: z.string(),
  status: z.enum(["pending", "failed"]),
  /** Hand-overs so far (a provider outage does not count). */
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

/** `GET /api/mail/outbox`: the transactional mail's health. */
export const outboxHealthSchema = z.object({
  /** Set while the provider is failing as a whole: why, and when delivery tries again. */
  paused: z.object({ reason: z.string(), until: z.iso.datetime(), since: z.iso.datetime() }).nullable(),
  pending: z.number().int(),
  failed: z.number().int(),
  /** The pending and failed messages, newest first (at most 50). */
  messages: z.array(outboxMessageSchema),
});

export type OutboxHealth = z.output<typeof outboxHealthSchema>;
