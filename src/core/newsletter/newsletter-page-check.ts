/** What asking the public site for a page gave: live only for a 200 (after redirects). */
export interface PageCheck {
  live: boolean;
  /** What came back, for the dashboard: "200", "404", or why nothing came back ("connection refused"). */
  answer: string;
  /** A 200 page's `article:modified_time` (a post's page), when it has one: WebSub waits for an update to show. */
  modifiedTime?: string;
}

/**
 * Asks the public site for a page (a post's URL) and says whether it answers 200. The real one
 * (src/adapters/page-check.ts) makes a GET; tests pass their own. Never throws.
 */
export type CheckPage = (url: string) => Promise<PageCheck>;
