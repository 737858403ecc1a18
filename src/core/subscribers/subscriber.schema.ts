import { z } from "zod";

/** An email address as we store it: trimmed, lower-cased, valid, at most 254 characters. */
export const emailSchema = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Please enter a valid email address.")
  .pipe(z.email("Please enter a valid email address."))
  .transform((email) => email.toLowerCase());

/** The body of `POST /api/newsletter/subscribe` (and of a download request). */
export const subscribeSchema = z.object({ email: emailSchema }, { error: "Email is required" });

/**
 * Where a subscriber is: `pending` until they confirm by email, `active` while they receive the
 * newsletter; `bounced` (their address bounced) and `complained` (they marked our mail as spam)
 * receive nothing at all until they sign up again through the double opt-in.
 */
export const subscriberStatuses = ["pending", "active", "unsubscribed", "bounced", "complained"] as const;

export type SubscriberStatus = (typeof subscriberStatuses)[number];

/**
 * A page of the newest-first list starts just after the row that ended the page before: its
 * sign-up time in whole microseconds since 1970 (as the database keeps it: a JavaScript date would
 * round it to the millisecond and skip or repeat rows signed up within one) and its id, as
 * `<microseconds>_<id>`. It names a place in the order, not a row, so a row erased since does not
 * break it.
 */
export const subscriberCursorPattern = /^-?\d{1,17}_[1-9]\d{0,9}$/;

/** A subscriber as the dashboard lists them. */
export const subscriberSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  /** SPEC's flag: receives the newsletter (`status` is `active`). */
  isActive: z.boolean(),
  status: z.enum(subscriberStatuses),
  subscribedAt: z.iso.datetime(),
  source: z.string(),
  /** Why a `bounced` or `complained` subscriber gets nothing (the provider's words), and since when. */
  statusReason: z.string().nullable().optional(),
  statusChangedAt: z.iso.datetime().nullable().optional(),
});

export type Subscriber = z.output<typeof subscriberSchema>;

/** How many subscribers there are, by status and from the newsletter form (the dashboard's totals). */
export const subscriberCountsSchema = z.object({
  all: z.number().int(),
  pending: z.number().int(),
  active: z.number().int(),
  unsubscribed: z.number().int(),
  bounced: z.number().int(),
  complained: z.number().int(),
  newsletterSignups: z.number().int().meta({ description: "Signed up with the newsletter form (source `newsletter`)" }),
});

export type SubscriberCounts = z.output<typeof subscriberCountsSchema>;

/** The answer to a signup, the same whether the address was new or not. */
export const subscribedSchema = z.object({ subscribed: z.literal(true) });
