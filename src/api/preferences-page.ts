import type { ReaderPreferences } from "../core/subscribers/reader-preferences.schema.ts";
import { escapeHtml as escape } from "../core/shared/escape-html.ts";
import { formPageStyles } from "./form-page-styles.ts";
import type { LoadTemplate } from "./site-pages.ts";
import { renderPage, type PageContent } from "./subscription-pages.ts";

/**
 * The "Choose what you get" page (issue 42 point 3): the reader's topics and frequency as a plain
 * HTML form that posts to `POST /api/preferences` (no JavaScript needed), in the site's message
 * page. Opening it changes nothing; only its Save button does.
 */

/** What the page says above the form. */
export type PreferencesNotice = "saved" | "unfollow" | "error" | undefined;

const formStyles = formPageStyles(
  "nf-prefs",
  { maxWidth: "36rem", choices: true },
  `.nf-prefs .nf-topics{margin:.25rem 0 0 2rem;border-left:3px solid #0a0a0a;padding-left:1rem}
.nf-prefs small{display:block;color:#4b5563;font-size:.95rem}
`,
);

const notices: Record<Exclude<PreferencesNotice, undefined>, string> = {
  saved: "Saved. Your choice applies from the next email.",
  unfollow: "Ready to unfollow: check the choice below and press Save to confirm. Nothing has changed yet.",
  error: "That wasn't saved: a topic may have just been removed. Check the choice below and press Save again.",
};

const radio = (name: string, value: string, checked: boolean, label: string, hint?: string) =>
  `<label><input type="radio" name="${name}" value="${value}"${checked ? " checked" : ""}><span>${escape(label)}${hint ? `<small>${escape(hint)}</small>` : ""}</span></label>`;

/**
 * The form: everything or the ticked topics (each with its description), every post or a weekly
 * digest, and one Save button posting to `action` (the API, the token in its query).
 */
export function preferencesFormHtml(preferences: ReaderPreferences, action: string, notice?: PreferencesNotice): string {
  const hasTopics = preferences.topics.length > 0;
  const topics = preferences.topics
    .map(
      (topic) =>
        `<label><input type="checkbox" name="topics" value="${escape(topic.slug)}"${topic.followed ? " checked" : ""}><span><strong>${escape(topic.name)}</strong>${topic.description ? `<small>${escape(topic.description)}</small>` : ""}</span></label>`,
    )
    .join("");
  const what = hasTopics
    ? `<fieldset><legend>What you get</legend>${radio("everything", "true", preferences.everything, "Everything", "Every post, whatever its topic.")}${radio(
        "everything",
        "false",
        !preferences.everything,
        "Only the topics I tick",
      )}<div class="nf-topics" role="group" aria-label="Topics">${topics}</div></fieldset>`
    : // No topic yet: everyone gets every post; the choice is kept as it is.
      `<input type="hidden" name="everything" value="${preferences.everything ? "true" : "false"}">`;
  const how = `<fieldset><legend>How often</legend>${radio("frequency", "each", preferences.frequency === "each", "Every post", "Each post as it goes out.")}${radio(
    "frequency",
    "weekly",
    preferences.frequency === "weekly",
    "Weekly digest",
    "One email a week with the week's posts; none in a week without any.",
  )}</fieldset>`;
  const note = notice ? `<p class="nf-note" role="status">${escape(notices[notice])}</p>` : "";
  return `${formStyles}<form method="post" action="${escape(action)}" class="nf-prefs">${note}${what}${how}<button type="submit" class="btn justify-center">Save</button></form>`;
}

/** The page for a reader: their masked address, the form, and the way out of everything. */
export function preferencesPage(
  preferences: ReaderPreferences,
  links: { action: string; unsubscribe: string },
  notice: PreferencesNotice,
  loadTemplate: LoadTemplate,
): Promise<Response> {
  const content: PageContent = {
    status: 200,
    heading: "Choose what you get",
    text: `For ${preferences.email}. Pick the topics you want and how often; nothing changes until you press Save.`,
    bodyHtml: preferencesFormHtml(preferences, links.action, notice),
    links: [
      { href: links.unsubscribe, label: "Unsubscribe from everything" },
      { href: "/", label: "Back to Home" },
    ],
  };
  return renderPage(content, links.action, loadTemplate);
}

/** What a link that is not ours (403) or names nobody held any more (404) opens. */
export function preferencesProblemPage(status: 403 | 404, loadTemplate: LoadTemplate): Promise<Response> {
  const content: PageContent =
    status === 403
      ? {
          status,
          heading: "This link isn't valid",
          text: "It may have been cut off or changed on the way. Use the “Choose what you get” link at the foot of any of our emails.",
          links: [{ href: "/", label: "Back to Home" }],
        }
      : {
          status,
          heading: "We can't find this subscription",
          text: "Nothing is held for this address any more, so nothing more will be sent to it.",
          links: [
            { href: "/#newsletter", label: "Subscribe again" },
            { href: "/", label: "Back to Home" },
          ],
        };
  return renderPage(content, "/", loadTemplate);
}
