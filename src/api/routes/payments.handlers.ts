import { PayloadTooLargeError, UnauthorizedError } from "../../core/errors.ts";
import { checkoutAttribution } from "../../core/payments/membership.ts";
import { signedOutMessage } from "../../core/readers/reader-profile.ts";
import { findReaderSession } from "../../core/readers/reader-sessions.ts";
import type { AppDeps } from "../../app/app-deps.ts";
import { readReaderToken } from "../session-cookie.ts";
import { formRequestOf } from "../visit.ts";
import { exportPaymentsCsv, listPayments, paymentsConfig, revenue } from "../../core/payments/payments-admin.ts";
import { checkoutStatus, openBillingPortal, readerPayments, receiveStripeEvent, startCheckout } from "../../core/payments/payments.service.ts";
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

/** The signed-in reader's address (their reader cookie), or null: a supporter's free resource and portal. */
async function readerEmail(deps: AppDeps, request: Request): Promise<string | null> {
  const session = await findReaderSession(deps, readReaderToken(request));
  if (!session) return null;
  const { rows } = await deps.db.query<{ email: string }>("SELECT email FROM subscribers WHERE id = $1", [session.subscriberId]);
  return rows[0]?.email ?? null;
}

export const paymentsHandlers: RouteHandlers<typeof paymentsRoutes> = {
  checkout: async ({ body, deps, clientIp, request }) => {
    // Only a priced resource asks who is signed in (a supporter's free copy).
    const reader = body.kind === "resource" ? await readerEmail(deps, request) : null;
    const attribution = deps.payments ? await checkoutAttribution(deps, formRequestOf(request, clientIp, deps.env.SITE_URL)) : null;
    return startCheckout(deps, body, clientIp, {
      sourcePath: refererPath(request, deps.env.SITE_URL),
      source: attribution?.source ?? null,
      readerEmail: reader,
    });
  },
  billingPortal: async ({ body, deps, request }) =>
    openBillingPortal(deps, body.token !== undefined ? { token: body.token } : { readerEmail: await readerEmail(deps, request) }),
  readerPayments: async ({ deps, request }) => {
    const email = await readerEmail(deps, request);
    if (!email) throw new UnauthorizedError(signedOutMessage);
    return readerPayments(deps, email);
  },
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
