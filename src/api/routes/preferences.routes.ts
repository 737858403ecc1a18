import { z } from "zod";
import { preferencesQuerySchema, preferencesUpdateSchema, readerPreferencesSchema } from "../../core/subscribers/reader-preferences.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, fileAnswer, jsonAnswer, redirectAnswer } from "../declare-route.ts";

/** The page's query: the token, and what it says above the form. */
const pageQuery = preferencesQuerySchema.extend({
  saved: z.literal("1").optional(),
  error: z.literal("1").optional(),
  unfollow: z
    .string()
    .max(80)
    .optional()
    .meta({ description: "A topic's slug: the page opens with that topic unfollowed, ready to save (nothing changes until Save)" }),
});

/**
 * A reader's topics and frequency (issue 42 points 2 and 3), behind the signed "Choose what you
 * get" link of every email: no login, the token is the proof. GET and HEAD change nothing (mail
 * scanners open every link); the change is a same-origin POST.
 */
export const preferencesRoutes = {
  read: declareRoute({
    method: "GET",
    path: apiPaths.preferences,
    access: "public",
    summary: "A reader's topics and frequency, for the token of their email's link. Changes nothing",
    query: preferencesQuerySchema,
    answers: { 200: jsonAnswer(readerPreferencesSchema, "The address (masked), frequency, everything, and every topic with whether it is followed") },
    errors: [403, 404],
  }),
  save: declareRoute({
    method: "POST",
    path: apiPaths.preferences,
    access: "public",
    summary: "Saves a reader's topics and frequency (JSON, or the preference page's form: 303 back to the page saying it is saved)",
    query: preferencesQuerySchema,
    body: { type: "json", schema: preferencesUpdateSchema, form: { success: apiPaths.preferencesPage, failure: "/preferences-failed/" } },
    answers: {
      200: jsonAnswer(readerPreferencesSchema, "What the reader gets now"),
      303: redirectAnswer("A form posted without JavaScript: to the preference page with a saved notice (or its error notice)"),
    },
    errors: [403, 404],
  }),
  page: declareRoute({
    method: "GET",
    path: apiPaths.preferencesPage,
    access: "public",
    summary: 'The "Choose what you get" page: the reader\'s topics and frequency as a form with one Save button. Changes nothing',
    query: pageQuery,
    answers: { 200: fileAnswer("text/html", "The page") },
    errors: [403, 404],
    htmlErrors: [403, 404],
  }),
};

/** The preference page for a token (`preferencesRoutes.page`); `unfollow` opens it with that topic's unfollowing ready. */
export const preferencesPageUrl = (token: string, extra: { unfollow?: string; saved?: boolean; error?: boolean } = {}) =>
  `${apiPaths.preferencesPage}?${new URLSearchParams({
    token,
    ...(extra.unfollow !== undefined && { unfollow: extra.unfollow }),
    ...(extra.saved && { saved: "1" }),
    ...(extra.error && { error: "1" }),
  }).toString()}`;

/** Where the page's form posts (`preferencesRoutes.save`). */
export const preferencesApiUrl = (token: string) => `${apiPaths.preferences}?${new URLSearchParams({ token }).toString()}`;
