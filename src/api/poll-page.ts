import type { Poll } from "../core/polls/polls.service.ts";
import { escapeHtml as escape } from "../core/shared/escape-html.ts";
import { formPageStyles } from "./form-page-styles.ts";
import type { LoadTemplate } from "./site-pages.ts";
import { renderPage, type PageContent } from "./subscription-pages.ts";

/**
 * The page a poll answer's link opens (issue 42 point 6): the poll as a plain HTML form with the
 * link's answer selected (or the one already given) and one Confirm button posting to
 * `POST /api/polls/{id}/answer` (no JavaScript needed). Opening it changes nothing: mail scanners
 * open every link, and only the button records the answer.
 */

export type PollNotice = "saved" | "error" | undefined;

const formStyles = formPageStyles("nf-poll", { maxWidth: "36rem", choices: true });

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
