import { isRowId } from "../db/row-id.ts";
import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors.ts";
import { verifyPollToken } from "../mail/subscription-tokens.ts";
import type { Signer } from "../shared/signer.ts";
import { setSubscriberTags } from "../subscribers/subscriber-tags.ts";
import type { PollAnswered, PollAnswerInput, PollForm, PollResults } from "./poll.schema.ts";

/**
 * Polls in emails (issue 42 point 6; docs/decisions/0080-polls-in-emails.md). The owner makes a
 * poll in the editor; the newsletter shows one link per answer, signed per recipient; the link
 * opens a page with that answer selected, and only its same-origin POST records the answer. One
 * answer per person per poll, changeable; an answer may set a subscriber tag, taken off again when
 * the person changes to another answer.
 */

export interface PollsDeps {
  db: SqlExecutor;
  now: () => Date;
}

export interface PollAnswerDeps extends PollsDeps {
  signer: Signer;
}

export interface Poll {
  id: number;
  question: string;
  answers: { index: number; text: string; tag: string | null }[];
}

export const pollNotFoundMessage = "Poll not found";
export const invalidPollLinkMessage =
  "This link isn't valid: it may have been cut off or changed on the way. Use the answer links in the email again.";
export const unknownVoterMessage = "Nothing is held for this address any more, so this answer can't be saved.";
export const unknownAnswerMessage = (answer: string | number) => `“${String(answer)}” is not one of this poll's answers`;

/** Makes a poll: its question and 2–5 answers, numbered from 0 in the order given. */
export async function createPoll(deps: PollsDeps, form: PollForm): Promise<{ id: number }> {
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>("INSERT INTO polls (question, created_at) VALUES ($1, $2) RETURNING id", [
      form.question,
      deps.now(),
    ]);
    const id = (rows[0] as { id: number }).id;
    await tx.query(
      `INSERT INTO poll_answers (poll_id, answer_index, text, tag)
       SELECT $1, (ordinality - 1)::smallint, text, NULLIF(tag, '') FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS a(text, tag, ordinality)`,
      [id, form.answers.map((answer) => answer.text), form.answers.map((answer) => answer.tag ?? "")],
    );
    return { id };
  });
}

/** A poll with its answers; 404 when there is none. */
export async function getPoll(db: SqlQueryable, id: number): Promise<Poll> {
  const polls = await pollsById(db, [id]);
  const poll = polls.get(id);
  if (!poll) throw new NotFoundError(pollNotFoundMessage);
  return poll;
}

/** The polls of these ids that exist, with their answers in order. */
export async function pollsById(db: SqlQueryable, ids: readonly number[]): Promise<Map<number, Poll>> {
  const polls = new Map<number, Poll>();
  const valid = [...new Set(ids)].filter(isRowId);
  if (valid.length === 0) return polls;
  const { rows } = await db.query<{ id: number; question: string; answer_index: number; text: string; tag: string | null }>(
    `SELECT p.id, p.question, a.answer_index, a.text, a.tag FROM polls p JOIN poll_answers a ON a.poll_id = p.id
      WHERE p.id = ANY($1::int[]) ORDER BY p.id, a.answer_index`,
    [valid],
  );
  for (const row of rows) {
    const poll = polls.get(row.id) ?? { id: row.id, question: row.question, answers: [] };
    poll.answers.push({ index: Number(row.answer_index), text: row.text, tag: row.tag });
    polls.set(row.id, poll);
  }
  return polls;
}

/** A share as the results show it: 0 to 100 with one decimal; 0 while nobody answered. */
export const percentOf = (count: number, total: number) => (total === 0 ? 0 : Math.round((count * 1000) / total) / 10);

/** The results of these polls (in the order asked, unknown ids left out): counts and percentages per answer. */
export async function pollResultsOf(db: SqlQueryable, ids: readonly number[]): Promise<PollResults[]> {
  const polls = await pollsById(db, ids);
  if (polls.size === 0) return [];
  const { rows } = await db.query<{ poll_id: number; answer_index: number; count: number }>(
    "SELECT poll_id, answer_index, count(*)::int AS count FROM poll_votes WHERE poll_id = ANY($1::int[]) GROUP BY poll_id, answer_index",
    [[...polls.keys()]],
  );
  const counts = new Map(rows.map((row) => [`${String(row.poll_id)} ${String(row.answer_index)}`, Number(row.count)]));
  const seen = new Set<number>();
  const results: PollResults[] = [];
  for (const id of ids) {
    const poll = polls.get(id);
    if (!poll || seen.has(id)) continue;
    seen.add(id);
    const answers = poll.answers.map((answer) => ({ text: answer.text, count: counts.get(`${String(id)} ${String(answer.index)}`) ?? 0 }));
    const total = answers.reduce((sum, answer) => sum + answer.count, 0);
    results.push({ id, question: poll.question, total, answers: answers.map((answer) => ({ ...answer, percent: percentOf(answer.count, total) })) });
  }
  return results;
}

/** One poll's results; 404 when there is none. */
export async function pollResults(db: SqlQueryable, id: number): Promise<PollResults> {
  const [results] = await pollResultsOf(db, [id]);
  if (!results) throw new NotFoundError(pollNotFoundMessage);
  return results;
}

/** The polls placed in a post's HTML (`<div data-poll="ID">`), in the order they appear. */
export function pollIdsIn(html: string): number[] {
  const ids: number[] = [];
  for (const match of html.matchAll(/<div\b[^>]*\bdata-poll="([1-9]\d{0,9})"/g)) {
    const id = Number(match[1]);
    if (isRowId(id) && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The results of the polls in one post (Stats per post); 404 for a post that does not exist. */
export async function postPollResults(db: SqlQueryable, postId: number): Promise<PollResults[]> {
  const { rows } = isRowId(postId) ? await db.query<{ content: string }>("SELECT content FROM posts WHERE id = $1", [postId]) : { rows: [] };
  const post = rows[0];
  if (!post) throw new NotFoundError("Post not found");
  return pollResultsOf(db, pollIdsIn(post.content));
}

/** Every poll, newest first, with its results and the posts it is placed in (the Stats tab's Polls list). */
export async function listPollResults(db: SqlQueryable): Promise<(PollResults & { posts: { id: number; title: string }[] })[]> {
  const { rows } = await db.query<{ id: number }>("SELECT id FROM polls ORDER BY created_at DESC, id DESC LIMIT 200");
  const results = await pollResultsOf(
    db,
    rows.map((row) => row.id),
  );
  if (results.length === 0) return [];
  const { rows: posts } = await db.query<{ id: number; title: string; content: string }>(
    "SELECT id, title, content FROM posts WHERE content LIKE '%data-poll=%' ORDER BY id",
  );
  return results.map((poll) => ({
    ...poll,
    posts: posts.filter((post) => pollIdsIn(post.content).includes(poll.id)).map(({ id, title }) => ({ id, title })),
  }));
}

/** The person and poll a link's token names, for the poll in the path: 403 for a token that is not ours or not this poll's. */
function voterOf(deps: Pick<PollAnswerDeps, "signer">, pollId: number, rawToken: string | undefined) {
  const check = verifyPollToken(deps.signer, rawToken);
  if (!check.ok || check.token.pollId !== pollId) throw new ForbiddenError(invalidPollLinkMessage);
  return check.token;
}

/** What the answer page shows: the poll, the answer to select (the one held, or the link's), the one held. Changes nothing. */
export async function readPollForToken(
  deps: Pick<PollAnswerDeps, "db" | "signer">,
  pollId: number,
  rawToken: string | undefined,
): Promise<{ poll: Poll; selected: number; held: number | null }> {
  const token = voterOf(deps, pollId, rawToken);
  const poll = await getPoll(deps.db, pollId);
  const { rows: people } = await deps.db.query("SELECT 1 FROM subscribers WHERE id = $1", [token.subscriberId]);
  if (people.length === 0) throw new NotFoundError(unknownVoterMessage);
  const { rows } = await deps.db.query<{ answer_index: number }>("SELECT answer_index FROM poll_votes WHERE poll_id = $1 AND subscriber_id = $2", [
    pollId,
    token.subscriberId,
  ]);
  const held = rows[0] ? Number(rows[0].answer_index) : null;
  const linked = poll.answers.some((answer) => answer.index === token.answerIndex) ? token.answerIndex : (held ?? 0);
  return { poll, selected: linked, held };
}

/** The answer meant: an index, or a text (any case); digits that match no text are an index. 400 for none of the poll's. */
function answerMeant(poll: Poll, answer: PollAnswerInput["answer"]) {
  const byIndex = (index: number) => poll.answers.find((candidate) => candidate.index === index);
  const found =
    typeof answer === "number"
      ? byIndex(answer)
      : (poll.answers.find((candidate) => candidate.text.toLowerCase() === answer.trim().toLowerCase()) ??
        (/^\d$/.test(answer.trim()) ? byIndex(Number(answer.trim())) : undefined));
  if (!found) throw new ValidationError(unknownAnswerMessage(answer));
  return found;
}

/** The subscriber tag line of a poll answer, for the person's page; its prefix names the poll, so a change finds it again. */
const tagDetail = (poll: Poll, text: string) => `Poll ${String(poll.id)}: ${poll.question} — ${text}`;

/**
 * Records a person's answer (the answer page's POST): one per person per poll, a new answer
 * replaces the one held. The answer's tag is set on the person; a changed answer takes off the old
 * answer's tag when this poll set it (a tag the owner or another source set stays). The person's
 * row is locked, so two clicks at once take turns.
 */
export async function answerPoll(deps: PollAnswerDeps, pollId: number, rawToken: string | undefined, input: PollAnswerInput): Promise<PollAnswered> {
  const token = voterOf(deps, pollId, rawToken);
  const poll = await getPoll(deps.db, pollId);
  const chosen = answerMeant(poll, input.answer);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const { rows: people } = await tx.query("SELECT 1 FROM subscribers WHERE id = $1 FOR UPDATE", [token.subscriberId]);
    if (people.length === 0) throw new NotFoundError(unknownVoterMessage);
    const { rows } = await tx.query<{ answer_index: number }>("SELECT answer_index FROM poll_votes WHERE poll_id = $1 AND subscriber_id = $2", [
      pollId,
      token.subscriberId,
    ]);
    const before = rows[0] ? poll.answers.find((answer) => answer.index === Number(rows[0]?.answer_index)) : undefined;
    const answered = { poll: poll.id, question: poll.question, answer: { index: chosen.index, text: chosen.text } };
    if (before?.index === chosen.index) return { ...answered, changed: false };
    await tx.query(
      `INSERT INTO poll_votes (poll_id, subscriber_id, answer_index, answered_at, updated_at) VALUES ($1, $2, $3, $4, $4)
       ON CONFLICT (poll_id, subscriber_id) DO UPDATE SET answer_index = EXCLUDED.answer_index, updated_at = EXCLUDED.updated_at`,
      [pollId, token.subscriberId, chosen.index, now],
    );
    if (before?.tag && before.tag !== chosen.tag) {
      await tx.query(
        `DELETE FROM subscriber_tag_assignments
          WHERE subscriber_id = $1 AND source = 'poll' AND starts_with(detail, $3)
            AND subscriber_tag_id = (SELECT id FROM subscriber_tags WHERE slug = $2)`,
        [token.subscriberId, before.tag, `Poll ${String(poll.id)}: `],
      );
    }
    if (chosen.tag)
      await setSubscriberTags(tx, [token.subscriberId], [chosen.tag], { source: "poll", detail: tagDetail(poll, chosen.text), at: now });
    return { ...answered, changed: before !== undefined };
  });
}

/** A poll's stand-in token for one answer in a send's stored email; each recipient's copy gets their own (personalMessage). */
export const pollTokenPlaceholder = (pollId: number, answerIndex: number) => `__RECIPIENT_POLL_${String(pollId)}_${String(answerIndex)}__`;

/** Every poll stand-in of an email, as `pollTokenPlaceholder` writes them. */
export const pollTokenPlaceholders = /__RECIPIENT_POLL_([1-9]\d{0,9})_([0-4])__/g;
