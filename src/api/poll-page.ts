import type { Poll } from "../core/polls/polls.service.ts";
import { escapeHtml as escape } from "../core/shared/escape-html.ts";
import type { LoadTemplate } from "./site-pages.ts";
import { renderPage, type PageContent } from "./subscription-pages.ts";

/**
 * The page a poll answer's link opens (issue 42 point 6): the poll as a plain HTML form with the
 * link's answer selected (or the one already given) and one Confirm button posting to
 * `POST /api/polls/{id}/answer` (no JavaScript needed). Opening it changes nothing: mail scanners
 * open every link, and only the button records the answer.
 */

export type PollNotice = "saved" | "error" | undefined;

// BRAND.md: 3px ink borders, a hard shadow, signal red for the checked state and focus (as the preference page).
const formStyles = `<style>
.nf-poll{width:100%;max-width:36rem;margin:0 auto;text-align:left}
.nf-poll fieldset{border:3px solid #0a0a0a;box-shadow:4px 4px 0 #0a0a0a;margin:0 0 1.5rem;padding:1rem 1.25rem;background:#fff;color:#0a0a0a}
.nf-poll legend{font-family:"Archivo Black","Arial Black",Impact,sans-serif;text-transform:uppercase;padding:0 .5rem;background:#fafaf7;border:3px solid #0a0a0a}
.nf-poll label{display:flex;gap:.75rem;align-items:flex-start;padding:.5rem 0;cursor:pointer}
.nf-poll input{width:1.25rem;height:1.25rem;margin-top:.2rem;accent-color:#b91c1c;flex:none}
.nf-poll .nf-note{margin:0 0 1rem;padding:.75rem 1rem;border:3px solid #0a0a0a;background:#fef3c7;color:#0a0a0a}
.nf-poll button{width:100%}
.nf-poll :focus-visible{outline:3px solid #e11d2e;outline-offset:2px}
</style>`;

const notices: Record<Exclude<PollNotice, undefined>, string> = {
  saved: "Thanks, your answer is saved. You can change it here any time.",
  error: "That wasn't saved. Check your choice below and press Confirm again.",
};

/** The form: each answer a radio (its text is the value, so the form and JSON say it the same way), one Confirm button. */
export function pollFormHtml(shown: { poll: Poll; selected: number }, action: string, notice?: PollNotice): string {
  const answers = shown.poll.answers
    .map(
      (answer) =>
        `<label><input type="radio" name="answer" value="${escape(answer.text)}"${answer.index === shown.selected ? " checked" : ""} required><span>${escape(answer.text)}</span></label>`,
    )
    .join("");
  const note = notice ? `<p class="nf-note" role="status">${escape(notices[notice])}</p>` : "";
  return `${formStyles}<form method="post" action="${escape(action)}" class="nf-poll">${note}<fieldset><legend>Your answer</legend>${answers}</fieldset><button type="submit" class="btn justify-center">Confirm</button></form>`;
}

/** The page for a reader's link: the question, the form. */
export function pollPage(
  shown: { poll: Poll; selected: number; held: number | null },
  action: string,
  notice: PollNotice,
  loadTemplate: LoadTemplate,
): Promise<Response> {
  const content: PageContent = {
    status: 200,
    heading: shown.poll.question,
    text:
      shown.held === null
        ? "Check the answer below and press Confirm to send it. Nothing is recorded until you do."
        : "You have answered this poll; the answer you gave is kept until you confirm another one.",
    bodyHtml: pollFormHtml(shown, action, notice),
    links: [{ href: "/", label: "Back to Home" }],
  };
  return renderPage(content, action, loadTemplate);
}

/** What a link that is not ours (403) or names a poll or person no longer held (404) opens. */
export function pollProblemPage(status: 403 | 404, loadTemplate: LoadTemplate): Promise<Response> {
  const content: PageContent =
    status === 403
      ? {
          status,
          heading: "This link isn't valid",
          text: "It may have been cut off or changed on the way. Use the answer links in the email again.",
          links: [{ href: "/", label: "Back to Home" }],
        }
      : {
          status,
          heading: "We can't find this poll",
          text: "This poll or this subscription is no longer held, so no answer can be saved.",
          links: [{ href: "/", label: "Back to Home" }],
        };
  return renderPage(content, "/", loadTemplate);
}
