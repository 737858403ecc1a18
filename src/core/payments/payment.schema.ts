import { z } from "zod";
import { emailSchema } from "../subscribers/subscriber.schema.ts";
export { currencySchema, maxPrice, priceField } from "../downloads/download.schema.ts";

/** A tip's bounds in minor units: Stripe's smallest charge for most currencies, and a sane ceiling. */
export const tipBounds = { min: 100, max: 100_000 } as const;

/** `POST /api/checkout` (issue 47, exact). The amount is only read for a tip, and only within bounds. */
export const checkoutRequestSchema = z.object({
  kind: z.enum(["tip", "resource", "membership"], { error: "kind must be tip, resource or membership" }),
  resourceId: z.number({ error: "resourceId must be a resource's id" }).int().positive().optional(),
  amount: z
    .number({ error: "amount must be a whole number of minor units" })
    .int("amount must be a whole number of minor units")
    .min(tipBounds.min, `A tip is at least ${String(tipBounds.min)} minor units`)
    .max(tipBounds.max, `A tip is at most ${String(tipBounds.max)} minor units`)
    .optional(),
  interval: z.enum(["month", "year"], { error: "interval must be month or year" }).optional(),
  email: emailSchema.optional(),
  newsletter: z.boolean({ error: "newsletter must be true or false" }).optional(),
});

export type CheckoutRequest = z.output<typeof checkoutRequestSchema>;

export const checkoutAnswerSchema = z.object({ url: z.string() });

/** What the thank-you page reads while it waits for Stripe's event. */
export const checkoutStatusSchema = z.object({
  status: z.enum(["pending", "paid", "refunded", "disputed"]),
  kind: z.enum(["tip", "resource", "membership"]).nullable(),
  itemTitle: z.string().nullable(),
  downloadUrl: z.string().nullable(),
});

export type CheckoutStatus = z.output<typeof checkoutStatusSchema>;

export const checkoutStatusQuerySchema = z.object({
  session: z.string().regex(/^cs_[A-Za-z0-9_]{1,200}$/, "session must be a Checkout Session id (cs_…)"),
});

export const paymentKindSchema = z.enum(["tip", "resource", "membership"]);

/** One payment in the dashboard's list and the CSV. */
export const paymentSchema = z.object({
  id: z.number().int(),
  kind: paymentKindSchema,
  status: z.enum(["paid", "refunded", "disputed"]),
  amount: z.number().int(),
  currency: z.string(),
  email: z.string().nullable(),
  resourceId: z.number().int().nullable(),
  itemTitle: z.string(),
  livemode: z.boolean(),
  createdAt: z.string(),
  checkoutSessionId: z.string(),
});

export type Payment = z.output<typeof paymentSchema>;

export const paymentsQuerySchema = z.object({
  kind: paymentKindSchema.optional(),
  page: z
    .string()
    .regex(/^[1-9]\d{0,4}$/, "page must be a whole number from 1 to 99999")
    .transform(Number)
    .optional(),
});

export const paymentsPageSchema = z.object({
  payments: z.array(paymentSchema),
  totals: z.array(z.object({ kind: paymentKindSchema, currency: z.string(), count: z.number().int(), amount: z.number().int() })),
  page: z.number().int(),
  hasMore: z.boolean(),
});

/** Whether payments are on, and in which mode (the dashboard's Payments panel). */
export const paymentsConfigSchema = z.object({
  enabled: z.boolean(),
  mode: z.enum(["test", "live"]).nullable(),
  missing: z.array(z.string()),
  docs: z.string(),
});

const dayString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Dates are YYYY-MM-DD");

/** `GET /api/revenue?from=&to=`: both days included (UTC); without them, everything. */
export const revenueQuerySchema = z
  .object({ from: dayString.optional(), to: dayString.optional() })
  .refine((range) => !range.from || !range.to || range.from <= range.to, { message: "from must not be after to" });

/** The Revenue panel's figures (issue 47 point 6, exact), amounts in minor units of `currency`. */
export const revenueSchema = z.object({
  tips: z.object({ count: z.number().int(), amount: z.number().int() }),
  sales: z.array(z.object({ resourceId: z.number().int().nullable(), title: z.string(), count: z.number().int(), amount: z.number().int() })),
  supporters: z.object({ active: z.number().int(), mrr: z.number().int(), churned: z.number().int() }),
  byPost: z.array(z.object({ path: z.string(), amount: z.number().int() })),
  bySource: z.array(z.object({ source: z.string(), amount: z.number().int() })),
  currency: z.string(),
});

export type Revenue = z.output<typeof revenueSchema>;

/** `POST /api/billing-portal`: the receipt link's signed `token`, or nothing with a reader session. */
export const billingPortalRequestSchema = z.object({
  token: z.string({ error: "token must be the link's token" }).min(1, "token must be the link's token").max(400, "token is too long").optional(),
});

/** `GET /api/readers/me/payments`: what the signed-in reader paid, and their membership (the account page). */
export const readerPaymentsSchema = z.object({
  payments: z.array(
    z.object({
      kind: paymentKindSchema,
      status: z.enum(["paid", "refunded", "disputed"]),
      itemTitle: z.string(),
      amount: z.number().int(),
      currency: z.string(),
      paidAt: z.string(),
      /** A bought resource's link (signed now, 30 days) while the payment stands; null otherwise. */
      downloadUrl: z.string().nullable(),
    }),
  ),
  membership: z
    .object({
      status: z.string(),
      /** Whether the benefit holds (Stripe still bills it). */
      active: z.boolean(),
      interval: z.enum(["month", "year"]).nullable(),
      amount: z.number().int(),
      currency: z.string(),
      currentPeriodEnd: z.string().nullable(),
    })
    .nullable(),
});

export type ReaderPayments = z.output<typeof readerPaymentsSchema>;
