import { z } from "zod";
import { subscriberTagSlugPattern } from "../subscribers/subscriber-tags.schema.ts";

/** The note under a poll on the post's page (the editor's block; the email has the links). */
export const pollWebNote = "Answer from your email: each answer in the newsletter is a link.";

/** How many answers a poll has (issue 42 point 6). */
export const minPollAnswers = 2;
export const maxPollAnswers = 5;

const answerText = z
  .string({ error: "Each answer must be text" })
  .trim()
  .min(1, "An answer must not be empty")
  .max(200, "An answer is at most 200 characters");

/** One answer as the editor's dialog makes it: its words, and the subscriber tag it applies (optional). */
export const pollAnswerFormSchema = z.object({
  text: answerText,
  tag: z
    .string({ error: "A tag must be text" })
    .trim()
    .toLowerCase()
    .max(80, "A tag is at most 80 characters")
    .regex(subscriberTagSlugPattern, "A tag is lower-case letters and digits, joined by single ':', '.', '_' or '-'")
    .optional()
    .meta({ description: "A subscriber tag set on the person who gives this answer (taken off again when they change it)" }),
});

/** `POST /api/polls`: a question and 2 to 5 answers. */
export const pollFormSchema = z.object({
  question: z
    .string({ error: "The question must be text" })
    .trim()
    .min(1, "The question must not be empty")
    .max(300, "The question is at most 300 characters"),
  answers: z
    .array(pollAnswerFormSchema, { error: "The answers must be a list" })
    .min(minPollAnswers, `A poll has ${String(minPollAnswers)} to ${String(maxPollAnswers)} answers`)
    .max(maxPollAnswers, `A poll has ${String(minPollAnswers)} to ${String(maxPollAnswers)} answers`)
    .refine(
      (answers) => new Set(answers.map((answer) => answer.text.toLowerCase())).size === answers.length,
      "Two answers must not say the same thing",
    ),
});
export type PollForm = z.output<typeof pollFormSchema>;

export const pollCreatedSchema = z.object({ id: z.number().int() });

/** `GET /api/polls/{id}`: the poll's results. */
export const pollResultsSchema = z.object({
  id: z.number().int(),
  question: z.string(),
  total: z.number().int().meta({ description: "How many people answered" }),
  answers: z.array(
    z.object({
      text: z.string(),
      count: z.number().int(),
      percent: z.number().meta({ description: "Share of the answers, 0 to 100, one decimal (0 while nobody answered)" }),
    }),
  ),
});
export type PollResults = z.output<typeof pollResultsSchema>;

/** The answer page's query: the recipient's signed token, and what it says above the form. */
export const pollTokenQuerySchema = z.object({
  token: z
    .string({ error: "The link's token is missing" })
    .max(200, "The link's token is too long")
    .meta({ description: "The signed token of the email's answer link" }),
});

/**
 * `POST /api/polls/{id}/answer`: the answer's index (0-based, as a number or digits, as a form posts it)
 * or its text.
 */
export const pollAnswerSchema = z.object({
  answer: z
    .union(
      [
        z
          .number()
          .int()
          .min(0)
          .max(maxPollAnswers - 1),
        z.string().trim().min(1).max(200),
      ],
      {
        error: "The answer must be the answer's text or its index",
      },
    )
    .meta({ description: "The answer's index (0 for the first) or its text" }),
});
export type PollAnswerInput = z.output<typeof pollAnswerSchema>;

/** What the answer call answers (JSON): the poll's question and the answer now held for the person. */
export const pollAnsweredSchema = z.object({
  poll: z.number().int(),
  question: z.string(),
  answer: z.object({ index: z.number().int(), text: z.string() }),
  changed: z.boolean().meta({ description: "Whether this replaced an earlier, different answer" }),
});
export type PollAnswered = z.output<typeof pollAnsweredSchema>;
