import { PayloadTooLargeError } from "../../core/errors.ts";
import { exportPaymentsCsv, listPayments, paymentsConfig } from "../../core/payments/payments-admin.ts";
import { checkoutStatus, receiveStripeEvent, startCheckout } from "../../core/payments/payments.service.ts";
import { attachment } from "../attachment.ts";
import { readLimitedBody } from "../body-limit.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { paymentsRoutes } from "./payments.routes.ts";

/** Stripe's events are a few kilobytes; this leaves room for a large session. */
const maxEventBytes = 256 * 1024;

export const paymentsHandlers: RouteHandlers<typeof paymentsRoutes> = {
  checkout: ({ body, deps, clientIp }) => startCheckout(deps, body, clientIp),
  checkoutStatus: ({ query, deps }) => checkoutStatus(deps, query.session),
  webhook: async ({ request, deps }) => {
    // The raw bytes: Stripe's signature is over the body exactly as it was sent.
    const bytes = await readLimitedBody(
      request,
      maxEventBytes,
      () => new PayloadTooLargeError("The request body is too large (the limit is 256 KB)"),
    );
    await receiveStripeEvent(deps, new TextDecoder().decode(bytes), request.headers.get("stripe-signature"));
  },
  list: ({ query, deps }) => listPayments(deps, { kind: query.kind, page: query.page }),
  export: async ({ deps }) => attachment(await exportPaymentsCsv(deps), { fileName: "payments.csv", contentType: "text/csv; charset=utf-8" }),
  config: ({ deps }) => Promise.resolve(paymentsConfig(deps.payments, deps.env)),
};
