import { newsletterConsentWording } from "../core/subscribers/consent-wording.ts";
import type { ConfirmState, UnsubscribeState } from "../core/subscribers/subscription-lifecycle.ts";
import { escapeHtml } from "../core/shared/escape-html.ts";
import { fillMessageTemplate, messageTemplatePath } from "../lib/message-template.ts";
import { sitePageCsp, type LoadTemplate } from "./site-pages.ts";

/**
 * The pages behind the links in subscriber email, rendered by the API: what they show depends on
 * the token and the subscriber at this moment, and they must work without JavaScript, so a static
 * page that asks the API from a script would not do. Each is the site's own message page (its
 * layout, fonts, header and footer: `/message-template/`, built with the site) filled with the
 * answer; when that template cannot be had (the site not built yet, its CDN not answering), a
 * plain page in the brand still answers, so a confirm or unsubscribe link always works. Never
 * indexed, never cached.
 */

export interface PageContent {
  status: number;
  heading: string;
  text: string;
  /** A button that POSTs to the page's own URL (the token stays in it). */
  button?: { label: string; hidden?: Record<string, string> };
  links: { href: string; label: string }[];
  /** HTML of the caller's (escaped by it) shown before the button and links: the preference form. */
  bodyHtml?: string;
}

const home = { href: "/", label: "Back to Home" };
const subscribeAgain = { href: "/#newsletter", label: "Subscribe again" };
const blog = { href: "/blog", label: "Read the blog" };

const confirmPages: Record<ConfirmState, PageContent> = {
  ready: {
    status: 200,
    heading: "Confirm your subscription",
    // The email's button led here; this second click is the confirmation (a mail scanner that opens
    // links must not subscribe anyone), and the page says so rather than seeming to have failed.
    text: `Last step: press the button below to confirm. ${newsletterConsentWording}`,
    button: { label: "Confirm subscription" },
    links: [],
  },
  confirmed: {
    status: 200,
    heading: "You're subscribed!",
    text: "Welcome to No Filter. A welcome email is on its way to your inbox.",
    links: [blog, home],
  },
  already: {
    status: 200,
    heading: "You're already subscribed",
    text: "This address already gets the No Filter newsletter. There is nothing more to do.",
    links: [blog, home],
  },
  used: {
    status: 403,
    heading: "This link has already been used",
    text: "It confirmed a subscription that has ended since. Want the newsletter again? Subscribe and we'll send you a fresh link.",
    links: [subscribeAgain, home],
  },
  expired: {
    status: 403,
    heading: "This link has expired",
    text: "Confirmation links work for 7 days. Subscribe again and we'll send you a fresh one.",
    links: [subscribeAgain, home],
  },
  invalid: {
    status: 403,
    heading: "This link isn't valid",
    text: "It may have been cut off or changed on the way. Subscribe again and we'll send you a fresh one.",
    links: [subscribeAgain, home],
  },
  unknown: {
    status: 404,
    heading: "We can't find this subscription",
    text: "Nothing is held for this link any more. Subscribe again and we'll send you a fresh one.",
    links: [subscribeAgain, home],
  },
};

const unsubscribedText = "You won't get the No Filter newsletter any more. Changed your mind? You can subscribe again any time.";

const unsubscribePages: Record<UnsubscribeState, PageContent> = {
  ready: {
    status: 200,
    heading: "Unsubscribe from No Filter?",
    text: "You'll stop getting the newsletter. You can come back any time.",
    // The same body a mail provider's one-click POST carries (RFC 8058).
    button: { label: "Unsubscribe", hidden: { "List-Unsubscribe": "One-Click" } },
    links: [],
  },
  unsubscribed: { status: 200, heading: "You're unsubscribed", text: unsubscribedText, links: [subscribeAgain, home] },
  already: { status: 200, heading: "You're unsubscribed", text: unsubscribedText, links: [subscribeAgain, home] },
  invalid: {
    status: 403,
    heading: "This link isn't valid",
    text: "It may have been cut off or changed on the way. To leave the newsletter, use the Unsubscribe link at the foot of any of its emails.",
    links: [home],
  },
  unknown: {
    status: 404,
    heading: "We can't find this subscription",
    text: "Nothing is held for this address any more, so nothing more will be sent to it.",
    links: [home],
  },
};

const escape = escapeHtml;

// BRAND.md: ink on paper, heavy uppercase headings, 3px borders with a hard shadow, signal red action.
const styles = `
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; background: #fafaf7; color: #0a0a0a; font: 17px/1.65 Inter, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
  header { background: #0a0a0a; padding: 1rem 1.5rem; }
  header a { color: #fafaf7; font-family: "Archivo Black", "Arial Black", Impact, sans-serif; text-transform: uppercase; text-decoration: none; font-size: 1.25rem; }
  main { max-width: 40rem; margin: 3rem auto; padding: 2rem 1.5rem; border: 3px solid #0a0a0a; background: #fff; box-shadow: 6px 6px 0 #0a0a0a; }
  h1 { font-family: "Archivo Black", "Arial Black", Impact, sans-serif; text-transform: uppercase; font-size: 2rem; line-height: 1.15; margin: 0 0 1rem; }
  p { margin: 0 0 1.5rem; }
  form { margin: 0 0 1.5rem; }
  button, .link { display: inline-block; border: 3px solid #0a0a0a; padding: 0.75rem 1.25rem; font: inherit; font-family: "Archivo Black", "Arial Black", Impact, sans-serif; text-transform: uppercase; letter-spacing: 0.02em; text-decoration: none; cursor: pointer; box-shadow: 4px 4px 0 #0a0a0a; }
  button { background: #b91c1c; color: #fafaf7; }
  .link { background: #fafaf7; color: #0a0a0a; margin: 0 0.75rem 0.75rem 0; }
  :focus-visible { outline: 3px solid #e11d2e; outline-offset: 2px; }
`;

const pageHeaders = (csp: string) => ({
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "x-robots-tag": "noindex",
  "content-security-policy": csp,
  // The token is in the URL: no Referer leaves the site, yet a same-origin POST keeps its Origin.
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
});

/** The page's button (a form that posts back to `action`) and its links, as HTML. */
function actionsHtml(content: PageContent, action: string, classes: { button: string; link: string }): string {
  const hidden = Object.entries(content.button?.hidden ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join("");
  const form = content.button
    ? `<form method="post" action="${escape(action)}">${hidden}<button type="submit"${classes.button ? ` class="${classes.button}"` : ""}>${escape(content.button.label)}</button></form>`
    : "";
  const links = content.links.map((link) => `<a class="${classes.link}" href="${escape(link.href)}">${escape(link.label)}</a>`).join("");
  return `${content.bodyHtml ?? ""}${form}${links ? `<nav aria-label="Where next" class="flex flex-wrap justify-center gap-3">${links}</nav>` : ""}`;
}

/** The plain page: what answers when the site's template cannot be had. */
function plainPage(content: PageContent, action: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escape(content.heading)} — No Filter</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${styles}</style>
</head>
<body>
<header><a href="/">No Filter</a></header>
<main>
<h1>${escape(content.heading)}</h1>
<p>${escape(content.text)}</p>
${actionsHtml(content, action, { button: "", link: "link" })}
</main>
</body>
</html>
`;
}

export async function renderPage(content: PageContent, action: string, loadTemplate: LoadTemplate): Promise<Response> {
  try {
    const template = await loadTemplate(messageTemplatePath);
    const html = fillMessageTemplate(template, {
      heading: content.heading,
      text: content.text,
      actionsHtml: actionsHtml(content, action, { button: "btn justify-center", link: "btn btn-light" }),
    });
    return new Response(html, { status: content.status, headers: pageHeaders(sitePageCsp) });
  } catch (error) {
    console.warn(`[pages] The site's message template could not be had; answering the plain page: ${(error as Error).message}`);
    return new Response(plainPage(content, action), {
      status: content.status,
      headers: pageHeaders(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
      ),
    });
  }
}

/**
 * The page for a confirmation link in `state`; `action` is where its button posts (the same URL).
 * `topicChoice` (HTML): the topic form the page offers right after a confirmation (issue 42 point 3).
 */
export const confirmationPage = (state: ConfirmState, action: string, loadTemplate: LoadTemplate, topicChoice?: string) =>
  renderPage(topicChoice && state === "confirmed" ? { ...confirmPages[state], bodyHtml: topicChoice } : confirmPages[state], action, loadTemplate);

/** The page for an unsubscribe link in `state`; `action` is where its button posts (the same URL). */
export const unsubscribePage = (state: UnsubscribeState, action: string, loadTemplate: LoadTemplate) =>
  renderPage(unsubscribePages[state], action, loadTemplate);
