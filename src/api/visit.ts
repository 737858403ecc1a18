import type { FormRequest } from "../core/stats/attribution.ts";

/** The site's own host names: the request's, and SITE_URL's when set (the last: the stats hash the site by it). */
export function siteHosts(request: Request, siteUrl: string | undefined): string[] {
  const hosts = [new URL(request.url).hostname];
  if (siteUrl) hosts.push(new URL(siteUrl).hostname);
  return hosts;
}

/** What a form's request tells the stats: its page (`Referer`) and, hashed, its visitor. */
export function formRequestOf(request: Request, clientIp: string, siteUrl: string | undefined): FormRequest {
  return {
    referer: request.headers.get("referer"),
    userAgent: request.headers.get("user-agent") ?? "",
    clientIp,
    siteHosts: siteHosts(request, siteUrl),
  };
}

/**
 * Counts a form's use in the stats after the answer (Netlify's `waitUntil` keeps the function up
 * for it): the answer's time must not tell whether an address was new (subscribers.service.ts), and
 * a stats failure never fails the form.
 */
export function countAfterAnswer(deps: { waitUntil?: ((promise: Promise<unknown>) => void) | undefined }, count: () => Promise<void>): void {
  const work = Promise.resolve()
    .then(count)
    .catch((error: unknown) => console.error("[stats] Counting a form failed:", error));
  deps.waitUntil?.(work);
}

/** The path of the site page a form was posted from (its `Referer`, when it is the site's own), or null. */
export function formPageOf(request: Request, siteUrl: string | undefined): string | null {
  const referer = request.headers.get("referer");
  if (!referer) return null;
  try {
    const url = new URL(referer);
    return siteHosts(request, siteUrl).includes(url.hostname) ? url.pathname : null;
  } catch {
    return null;
  }
}
