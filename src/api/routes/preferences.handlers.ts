import { AppError, ForbiddenError, NotFoundError } from "../../core/errors.ts";
import { signUnsubscribeToken, verifyPreferencesToken } from "../../core/mail/subscription-tokens.ts";
import { readPreferences, savePreferences, withoutTopic } from "../../core/subscribers/reader-preferences.ts";
import { isFormPost } from "../forms.ts";
import { preferencesPage, preferencesProblemPage } from "../preferences-page.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { siteTemplates } from "../site-pages.ts";
import { preferencesApiUrl, preferencesPageUrl, type preferencesRoutes } from "./preferences.routes.ts";
import { unsubscribeUrl } from "./subscriptions.routes.ts";

/** The site's message template, asked of the site that answers; a plain page in the brand if it can't be had. */
const templates = (request: Request) => siteTemplates(request, 3_000);

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location } });

export const preferencesHandlers: RouteHandlers<typeof preferencesRoutes> = {
  read: ({ query, deps }) => readPreferences(deps, query.token),
  save: async ({ query, body, deps, request }) => {
    if (!isFormPost(request)) return savePreferences(deps, query.token, body);
    // The page's form: back to the page, which says it is saved, or what went wrong (a forged or
    // erased link's page, a topic removed while the page was open): never raw JSON.
    try {
      await savePreferences(deps, query.token, body);
      return seeOther(preferencesPageUrl(query.token ?? "", { saved: true }));
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return seeOther(preferencesPageUrl(query.token ?? "", { error: true }));
      throw error;
    }
  },
  page: async ({ query, deps, request }) => {
    const loadTemplate = templates(request);
    let preferences;
    try {
      preferences = await readPreferences(deps, query.token);
    } catch (error) {
      if (error instanceof ForbiddenError) return preferencesProblemPage(403, loadTemplate);
      if (error instanceof NotFoundError) return preferencesProblemPage(404, loadTemplate);
      throw error;
    }
    const token = query.token ?? "";
    const unfollowing = query.unfollow === undefined ? undefined : withoutTopic(preferences, query.unfollow);
    const notice = query.saved ? "saved" : query.error ? "error" : unfollowing ? "unfollow" : undefined;
    const check = verifyPreferencesToken(deps.signer, token);
    const unsubscribe = check.ok ? unsubscribeUrl(signUnsubscribeToken(deps.signer, check.token.subscriberId)) : "/";
    return preferencesPage(unfollowing ?? preferences, { action: preferencesApiUrl(token), unsubscribe }, notice, loadTemplate);
  },
};
