import type { CheckPage } from "../core/newsletter/newsletter-page-check.ts";

/** How long one look at the site may take before it counts as "not live" (the next tick asks again). */
const pageCheckTimeoutMs = 10_000;

/**
 * The real "is the post's page live?": a GET of the public URL (redirects followed, no cache),
 * live on a 200 only. On Netlify the URL answers from the deploy that is live, so a post answers
 * 200 once the deploy containing it is; under `npm start`, once the local rebuild has written it.
 * Never throws: no answer is "not live", with why. A 200 page's `article:modified_time` comes with
 * it, for WebSub (src/core/publishing/websub.ts) to tell an update live from the page before it.
 */
export function pageCheck(options: { timeoutMs?: number } = {}): CheckPage {
  return async (url) => {
    try {
      const response = await fetch(url, {
        redirect: "follow",
        headers: { "cache-control": "no-cache", "user-agent": "NoFilter-newsletter (is the post live?)" },
        signal: AbortSignal.timeout(options.timeoutMs ?? pageCheckTimeoutMs),
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        return { live: false, answer: String(response.status) };
      }
      // A post's page says when it last changed (`article:modified_time`): WebSub waits for the change itself.
      const modifiedTime = modifiedTimeIn(await response.text());
      return { live: true, answer: "200", ...(modifiedTime && { modifiedTime }) };
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
      return { live: false, answer: `no answer (${cause ?? (error instanceof Error ? error.message : String(error))})` };
    }
  };
}

/** The `article:modified_time` a page's head carries, or undefined. */
export function modifiedTimeIn(html: string): string | undefined {
  const tag = /<meta\s[^>]*property=["']article:modified_time["'][^>]*>/i.exec(html)?.[0];
  return tag ? /\scontent=["']([^"']+)["']/i.exec(tag)?.[1] : undefined;
}
