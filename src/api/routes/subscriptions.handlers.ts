import { checkConfirmation, checkUnsubscribe, confirmSubscription, unsubscribe } from "../../core/subscribers/subscription-lifecycle.ts";
import { isSameOrigin } from "../http.ts";
import { siteTemplates } from "../site-pages.ts";
import { confirmationPage, unsubscribePage } from "../subscription-pages.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { confirmSubscriptionUrl, unsubscribeUrl, type subscriptionsRoutes } from "./subscriptions.routes.ts";

/** The button posts back to the URL the page was opened with: the token stays where it was. */
const action = (build: (token: string) => string, token: string | undefined) => build(token ?? "");

/** The site's message template, asked of the site that answers; a link still works if it can't be had (a plain page). */
const templates = (request: Request) => siteTemplates(request, templateWaitMs);
const templateWaitMs = 3_000;

export const subscriptionsHandlers: RouteHandlers<typeof subscriptionsRoutes> = {
  confirmPage: async ({ query, deps, request }) =>
    confirmationPage(await checkConfirmation(deps, query.token), action(confirmSubscriptionUrl, query.token), templates(request)),
  confirm: async ({ query, deps, request }) =>
    confirmationPage(
      // A confirm pressed on another site changes nothing: the person lands on the "not valid" page, as with a broken link.
      isSameOrigin(request, deps.env.SITE_URL) ? await confirmSubscription(deps, query.token) : "invalid",
      action(confirmSubscriptionUrl, query.token),
      templates(request),
    ),
  unsubscribePage: async ({ query, deps, request }) =>
    unsubscribePage(await checkUnsubscribe(deps, query.token), action(unsubscribeUrl, query.token), templates(request)),
  unsubscribe: async ({ query, deps, request }) =>
    unsubscribePage(await unsubscribe(deps, query.token), action(unsubscribeUrl, query.token), templates(request)),
};
