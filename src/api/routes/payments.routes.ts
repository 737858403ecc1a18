import {
  billingPortalRequestSchema,
  checkoutAnswerSchema,
  checkoutRequestSchema,
  checkoutStatusQuerySchema,
  checkoutStatusSchema,
  paymentsConfigSchema,
  paymentsPageSchema,
  paymentsQuerySchema,
  readerPaymentsSchema,
  revenueQuerySchema,
  revenueSchema,
} from "../../core/payments/payment.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, fileAnswer, jsonAnswer } from "../declare-route.ts";

/** Payments through the owner's Stripe account (issue 47, docs/payments.md); 404 while Stripe is not set up. */
export const paymentsRoutes = {
  checkout: declareRoute({
    method: "POST",
    path: apiPaths.checkout,
    access: "public",
    summary:
      "Starts a Stripe Checkout for a tip (`amount` in minor units, within bounds), a paid resource (`resourceId`; its stored price, never the browser's) or the supporter membership (`interval`: month or year; the price setting's amount, a subscription): answers its URL. Nothing is recorded until Stripe's signed event says it was paid. A signed-in supporter (reader session) asking for a paid resource is answered its download link instead, free",
    body: { type: "json", schema: checkoutRequestSchema, maxBytes: 4096 },
    answers: { 200: jsonAnswer(checkoutAnswerSchema, "Stripe Checkout's URL") },
    errors: [429, 502],
  }),
  checkoutStatus: declareRoute({
    method: "GET",
    path: apiPaths.checkoutStatus,
    access: "public",
    summary:
      "The thank-you page's question: `pending` until Stripe's event for this Checkout Session has arrived, then the payment, with a paid resource's signed download link while the payment stands",
    query: checkoutStatusQuerySchema,
    answers: { 200: jsonAnswer(checkoutStatusSchema, "The payment, or pending") },
  }),
  webhook: declareRoute({
    method: "POST",
    path: apiPaths.stripeWebhook,
    access: "public",
    summary:
      "Stripe's events, checked by the official library's signature check over the raw body (400 when missing, tampered or older than 5 minutes); each event id is handled once, so a replay changes nothing and sends nothing",
    // Signed by Stripe instead: it posts from its servers, with no Origin and no cookie.
    crossSite: "token",
    answers: { 204: emptyAnswer("Handled (or a repeat, which changes nothing)") },
    // 404: payments are not set up on this site.
    errors: [404, 413],
  }),
  billingPortal: declareRoute({
    method: "POST",
    path: apiPaths.billingPortal,
    access: "public",
    summary:
      'A Stripe Customer Portal session (change or cancel the membership) for the supporter named by the signed `token` of their receipt\'s "manage your membership" link, or, without a token, for the signed-in reader (reader session): answers its URL',
    body: { type: "json", schema: billingPortalRequestSchema, maxBytes: 2048 },
    answers: { 200: jsonAnswer(checkoutAnswerSchema, "The Customer Portal's URL") },
    // 404: payments are not set up on this site.
    errors: [401, 404, 502],
  }),
  readerPayments: declareRoute({
    method: "GET",
    path: apiPaths.readerPayments,
    access: "public",
    summary:
      "The signed-in reader's payments (newest first, a bought resource with its download link while the payment stands) and their supporter membership (reader session; 401 without one)",
    answers: { 200: jsonAnswer(readerPaymentsSchema, "Their payments and membership") },
    errors: [401],
  }),
  list: declareRoute({
    method: "GET",
    path: apiPaths.payments,
    access: "admin",
    scope: "subscribers:read",
    summary: "One page of payments (50), newest first, of one `kind` or all, with the totals that stand (paid, not refunded or disputed)",
    query: paymentsQuerySchema,
    answers: { 200: jsonAnswer(paymentsPageSchema, "The payments") },
  }),
  export: declareRoute({
    method: "GET",
    path: apiPaths.paymentsExport,
    access: "admin",
    scope: "subscribers:read",
    summary: "Every payment as CSV (payments.csv), amounts in minor units as Stripe has them",
    answers: { 200: fileAnswer("text/csv", "The CSV file, formula-safe") },
  }),
  revenue: declareRoute({
    method: "GET",
    path: apiPaths.revenue,
    access: "admin",
    scope: "stats:read",
    summary:
      "The Revenue panel between `from` and `to` (YYYY-MM-DD, UTC, both included; without them all time): tips, sales per resource, supporters, revenue per post (the page a Checkout started from) and per source, in minor units of the main currency",
    query: revenueQuerySchema,
    answers: { 200: jsonAnswer(revenueSchema, "The figures") },
  }),
  config: declareRoute({
    method: "GET",
    path: apiPaths.paymentsConfig,
    access: "admin",
    scope: "stats:read",
    summary: "Whether payments are set up, in test or live mode, and which variables are missing",
    answers: { 200: jsonAnswer(paymentsConfigSchema, "The payments' setup") },
  }),
};
