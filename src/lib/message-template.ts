/**
 * The template of the pages behind subscriber email links (confirm, unsubscribe): the site's own
 * message page, built once at `/message-template/` with tokens where the texts and the actions go,
 * and filled by the API for each answer (src/api/subscription-pages.ts). Same approach as the
 * preview pages (decision 0035): the real layout — fonts, header, footer, dark mode — without
 * rendering Astro on demand.
 */
import { escapeHtml } from "../core/shared/escape-html.ts";

export const messageTemplatePath = "/message-template/";

/** Unique tokens: letters and underscores only, which neither HTML nor Astro escapes. */
export const messageTokens = { heading: "NF_MESSAGE_HEADING", text: "NF_MESSAGE_TEXT", actions: "NF_MESSAGE_ACTIONS" } as const;

/** The built template with a page's heading and text (escaped here) and its actions (HTML made by the caller). */
export function fillMessageTemplate(template: string, page: { heading: string; text: string; actionsHtml: string }): string {
  return template
    .replaceAll(messageTokens.heading, escapeHtml(page.heading))
    .replaceAll(messageTokens.text, escapeHtml(page.text))
    .replaceAll(messageTokens.actions, page.actionsHtml);
}
