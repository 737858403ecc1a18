import { z } from "zod";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, fileAnswer } from "../declare-route.ts";

/** The signed token an email's link carries; a missing or malformed one gets the "not valid" page. */
const tokenQuery = z.object({ token: z.string().max(512).optional() });

const page = (description: string) => fileAnswer("text/html", description);

/**
 * The links in subscriber email. Each answers an HTML page (the person arrived from their inbox,
 * with or without JavaScript). GET and HEAD only show what the button would do: mail scanners open
 * every link, so nothing changes until the person presses it (a POST).
 */
export const subscriptionsRoutes = {
  confirmPage: declareRoute({
    method: "GET",
    path: apiPaths.confirmSubscription,
    access: "public",
    summary: 'The page a confirmation link opens: a "Confirm subscription" button, or what became of the link. Changes nothing',
    query: tokenQuery,
    answers: { 200: page("The page") },
    errors: [403, 404],
    htmlErrors: [403, 404],
  }),
  confirm: declareRoute({
    method: "POST",
    path: apiPaths.confirmSubscription,
    access: "public",
    summary:
      'The confirm button: the subscriber becomes active and is sent the welcome email; pressed on another site, the "not valid" page and nothing changes',
    // Checked by its handler, which answers a person who arrived from elsewhere with the page, never JSON.
    crossSite: "token",
    query: tokenQuery,
    answers: { 200: page("The page saying so") },
    errors: [403, 404],
    htmlErrors: [403, 404],
  }),
  unsubscribePage: declareRoute({
    method: "GET",
    path: apiPaths.unsubscribe,
    access: "public",
    summary: 'The page an unsubscribe link opens: an "Unsubscribe" button. Changes nothing',
    query: tokenQuery,
    answers: { 200: page("The page") },
    errors: [403, 404],
    htmlErrors: [403, 404],
  }),
  unsubscribe: declareRoute({
    method: "POST",
    path: apiPaths.unsubscribe,
    access: "public",
    // RFC 8058: a mail provider posts `List-Unsubscribe=One-Click` with no cookie and no Origin.
    crossSite: "token",
    summary: "Unsubscribes at once: the page's button, or a mail provider's one-click POST (RFC 8058); never a redirect",
    query: tokenQuery,
    answers: { 200: page("A short page saying so") },
    errors: [403, 404],
    htmlErrors: [403, 404],
  }),
};

/** The confirmation page for a token, answered by `subscriptionsRoutes.confirmPage`. */
export const confirmSubscriptionUrl = (token: string) => `${apiPaths.confirmSubscription}?${new URLSearchParams({ token }).toString()}`;

/** The unsubscribe page and one-click endpoint for a token (`subscriptionsRoutes.unsubscribe`). */
export const unsubscribeUrl = (token: string) => `${apiPaths.unsubscribe}?${new URLSearchParams({ token }).toString()}`;
