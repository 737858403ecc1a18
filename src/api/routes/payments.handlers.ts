import { PayloadTooLargeError } from "../../core/errors.ts";
import { exportPaymentsCsv, listPayments, paymentsConfig, revenue } from "../../core/payments/payments-admin.ts";
import { checkoutStatus, receiveStripeEvent, startCheckout } from "../../core/payments/payments.service.ts";
import { attachment } from "../attachment.ts";
import { readLimitedBody } from "../body-limit.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { paymentsRoutes } from "./payments.routes.ts";

/** Stripe's events are a few kilobytes; this leaves room for a large session. */
const maxEventBytes = 256 * 1024;

/** The site page a Checkout was started from: a same-origin Referer's path, for revenue per post. */
function refererPath(request: Request, siteUrl: string | undefined): string | null {
  const referer = request.headers.get("referer");
  if (!referer || !siteUrl) return null;
  try {
    const url = new URL(referer);
    return url.origin === new URL(siteUrl).origin ? url.pathname : null;
  } catch {
    return null;
  }
}

export const paymentsHandlers: RouteHandlers<typeof paymentsRoutes> = {
  checkout: ({ body, deps, clientIp, request }) => startCheckout(deps, body, clientIp, refererPath(request, deps.env.SITE_URL)),
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
  revenue: ({ query, deps }) => revenue(deps, { from: query.from, to: query.to }),
  config: ({ deps }) => Promise.resolve(paymentsConfig(deps.payments, deps.env)),
};
