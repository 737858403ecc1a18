import { escapeHtml } from "../shared/escape-html.ts";
import { pollWebNote } from "./poll.schema.ts";
import type { Poll } from "./polls.service.ts";

/**
 * A poll in a post's HTML (issue 42 point 6): the editor's Poll button stores it as
 * `<div data-poll="ID">` holding the question and the answers as plain text, so the post's page
 * shows them with a note that the poll is answered from the email. The email replaces the block
 * with one link per answer (`pollBlocksForEmail`).
 */

/** The block the editor stores for a poll (and what the sanitizer keeps of it). */
export function pollBlockHtml(poll: Pick<Poll, "id" | "question"> & { answers: readonly { text: string }[] }): string {
  const answers = poll.answers.map((answer) => `<li>${escapeHtml(answer.text)}</li>`).join("");
  return `<div data-poll="${String(poll.id)}"><p><strong>${escapeHtml(poll.question)}</strong></p><ul>${answers}</ul><p><em>${escapeHtml(pollWebNote)}</em></p></div>`;
}

/** A whole poll block of post HTML: the div and what it holds (paragraphs and a list, never another div). */
const pollBlock = /<div\b[^>]*\bdata-poll="([1-9]\d{0,9})"[^>]*>[\s\S]*?<\/div>/g;

/**
 * Post HTML for the email: each poll block becomes its question and one link per answer
 * (`answerUrl`, absolute, carrying the recipient's token or its stand-in), from the poll as stored
 * (the block's text is the editor's copy). A block whose poll is gone is left out.
 */
export function pollBlocksForEmail(
  html: string,
  polls: ReadonlyMap<number, Poll>,
  answerUrl: (pollId: number, answerIndex: number) => string,
): string {
  return html.replace(pollBlock, (_whole, id: string) => {
    const poll = polls.get(Number(id));
    if (!poll) return "";
    const links = poll.answers
      .map((answer) => `<li><a href="${escapeHtml(answerUrl(poll.id, answer.index))}">${escapeHtml(answer.text)}</a></li>`)
      .join("");
    return `<p><strong>${escapeHtml(poll.question)}</strong></p><ul>${links}</ul><p><em>Click your answer: a page opens where you confirm it.</em></p>`;
  });
}
