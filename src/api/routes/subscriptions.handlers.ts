import { checkConfirmation, checkUnsubscribe, confirmSubscription, unsubscribe } from "../../core/subscribers/subscription-lifecycle.ts";
import { confirmationPage, unsubscribePage } from "../subscription-pages.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { confirmSubscriptionUrl, unsubscribeUrl, type subscriptionsRoutes } from "./subscriptions.routes.ts";

/** The button posts back to the URL the page was opened with: the token stays where it was. */
const action = (build: (token: string) => string, token: string | undefined) => build(token ?? "");

export const subscriptionsHandlers: RouteHandlers<typeof subscriptionsRoutes> = {
  confirmPage: async ({ query, deps }) => confirmationPage(await checkConfirmation(deps, query.token), action(confirmSubscriptionUrl, query.token)),
  confirm: async ({ query, deps }) => confirmationPage(await confirmSubscription(deps, query.token), action(confirmSubscriptionUrl, query.token)),
  unsubscribePage: async ({ query, deps }) => unsubscribePage(await checkUnsubscribe(deps, query.token), action(unsubscribeUrl, query.token)),
  unsubscribe: async ({ query, deps }) => unsubscribePage(await unsubscribe(deps, query.token), action(unsubscribeUrl, query.token)),
};
