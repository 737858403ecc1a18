import { z } from "zod";
import {
  pollAnsweredSchema,
  pollAnswerSchema,
  pollCreatedSchema,
  pollFormSchema,
  pollResultsSchema,
  pollTokenQuerySchema,
} from "../../core/polls/poll.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, fileAnswer, jsonAnswer, redirectAnswer } from "../declare-route.ts";
import { rowIdParams, rowIdQuery } from "../params.schema.ts";

const pollId = rowIdParams("Poll not found");

/** The answer page's query: the token, and what it says above the form. */
const pageQuery = pollTokenQuerySchema.extend({
  saved: z.literal("1").optional(),
  error: z.literal("1").optional(),
});

/** A poll's results, with the posts it is placed in (the Stats tab's Polls list). */
const listedPollSchema = pollResultsSchema.extend({
  posts: z.array(z.object({ id: z.number().int(), title: z.string() })).meta({ description: "The posts the poll is placed in" }),
});

/**
 * Polls in emails (issue 42 point 6): the editor's Poll button makes one, the newsletter shows one
 * link per answer signed per recipient, and the link's page (GET, changes nothing: mail scanners
 * open every link) posts the answer back (same origin only).
 */
export const pollsRoutes = {
  create: declareRoute({
    method: "POST",
    path: apiPaths.polls,
    access: "admin",
    scope: "content:write",
    summary:
      "Makes a poll: a question and 2 to 5 answers, each with an optional subscriber tag set on the people who give it. The editor places it in a post",
    body: { type: "json", schema: pollFormSchema },
    answers: { 201: jsonAnswer(pollCreatedSchema, "The new poll's id") },
  }),
  list: declareRoute({
    method: "GET",
    path: apiPaths.polls,
    access: "admin",
    scope: "stats:read",
    summary: "Every poll with its results, newest first (at most 200), or the polls placed in one post (`post`)",
    query: z.object({ post: rowIdQuery("post must be a post's id").optional() }),
    answers: { 200: jsonAnswer(z.array(listedPollSchema), "The polls with their counts and percentages") },
  }),
  get: declareRoute({
    method: "GET",
    path: apiPaths.poll,
    access: "admin",
    scope: "stats:read",
    summary: "A poll's results: how many answered, and each answer's count and percentage",
    params: pollId,
    answers: { 200: jsonAnswer(pollResultsSchema, "The results") },
  }),
  page: declareRoute({
    method: "GET",
    path: apiPaths.pollAnswer,
    access: "public",
    summary: "The page a poll answer's link opens: the poll with that answer selected and one Confirm button. Changes nothing",
    params: pollId,
    query: pageQuery,
    answers: { 200: fileAnswer("text/html", "The page") },
    errors: [403, 404],
    htmlErrors: [403, 404],
  }),
  answer: declareRoute({
    method: "POST",
    path: apiPaths.pollAnswer,
    access: "public",
    summary:
      "Records the reader's answer for the token of their email's link: one per person per poll, a new one replaces it; the answer's tag is set on them (and a changed answer's tag taken off). JSON, or the page's form: 303 back to the page saying it is saved",
    params: pollId,
    query: pollTokenQuerySchema,
    body: { type: "json", schema: pollAnswerSchema, form: { success: apiPaths.polls, failure: "/preferences-failed/" } },
    answers: {
      200: jsonAnswer(pollAnsweredSchema, "The answer now held"),
      303: redirectAnswer("A form posted without JavaScript: to the answer page with a saved notice (or its error notice)"),
    },
    errors: [403, 404],
  }),
};

/** The answer page for a poll and a token (`pollsRoutes.page`). */
export const pollAnswerPageUrl = (pollId: number, token: string, extra: { saved?: boolean; error?: boolean } = {}) =>
  `${apiPaths.pollAnswer.replace(":id", String(pollId))}?${new URLSearchParams({
    token,
    ...(extra.saved && { saved: "1" }),
    ...(extra.error && { error: "1" }),
  }).toString()}`;
