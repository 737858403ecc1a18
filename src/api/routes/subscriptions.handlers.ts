import { checkConfirmation, checkUnsubscribe, confirmSubscription, unsubscribe } from "../../core/subscribers/subscription-lifecycle.ts";
import { signPreferencesToken, verifyConfirmToken } from "../../core/mail/subscription-tokens.ts";
import { readPreferences } from "../../core/subscribers/reader-preferences.ts";
import type { AppDeps } from "../../app/app-deps.ts";
import { isSameOrigin } from "../http.ts";
import { preferencesFormHtml } from "../preferences-page.ts";
import { preferencesApiUrl } from "./preferences.routes.ts";
import { siteTemplates } from "../site-pages.ts";
import { confirmationPage, unsubscribePage } from "../subscription-pages.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { confirmSubscriptionUrl, unsubscribeUrl, type subscriptionsRoutes } from "./subscriptions.routes.ts";

/** The button posts back to the URL the page was opened with: the token stays where it was. */
const action = (build: (token: string) => string, token: string | undefined) => build(token ?? "");

/** The site's message template, asked of the site that answers; a link still works if it can't be had (a plain page). */
const templates = (request: Request) => siteTemplates(request, templateWaitMs);
const templateWaitMs = 3_000;

/**
 * The topic choice the page offers right after a confirmation (issue 42 point 3), when the site has
 * a topic: the preference form, posting with the reader's own preferences token.
 */
async function topicChoice(deps: Pick<AppDeps, "db" | "signer" | "now">, confirmToken: string | undefined): Promise<string | undefined> {
  const check = verifyConfirmToken(deps.signer, confirmToken, deps.now());
  if (!check.ok) return undefined;
  const token = signPreferencesToken(deps.signer, check.token.subscriberId);
  const preferences = await readPreferences(deps, token);
  if (preferences.topics.length === 0) return undefined;
  return `<p>Want only some of it? Pick your topics now, or change them later from the “Choose what you get” link in every email.</p>${preferencesFormHtml(preferences, preferencesApiUrl(token))}`;
}

export const subscriptionsHandlers: RouteHandlers<typeof subscriptionsRoutes> = {
  confirmPage: async ({ query, deps, request }) =>
    confirmationPage(await checkConfirmation(deps, query.token), action(confirmSubscriptionUrl, query.token), templates(request)),
  confirm: async ({ query, deps, request }) => {
    // A confirm pressed on another site changes nothing: the person lands on the "not valid" page, as with a broken link.
    const state = isSameOrigin(request, deps.env.SITE_URL) ? await confirmSubscription(deps, query.token) : "invalid";
    const choice = state === "confirmed" ? await topicChoice(deps, query.token) : undefined;
    return confirmationPage(state, action(confirmSubscriptionUrl, query.token), templates(request), choice);
  },
  unsubscribePage: async ({ query, deps, request }) =>
    unsubscribePage(await checkUnsubscribe(deps, query.token), action(unsubscribeUrl, query.token), templates(request)),
  unsubscribe: async ({ query, deps, request }) =>
    unsubscribePage(await unsubscribe(deps, query.token), action(unsubscribeUrl, query.token), templates(request)),
};
