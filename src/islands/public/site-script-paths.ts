/**
 * The API paths the every-page script calls (the page-view beacon, the resources' download counts),
 * written out: importing `apiPaths` put the whole table, every dashboard path included, into the
 * script every page loads, and /account went over its 5 KB once this round's routes were in.
 * `page-script-paths.test.ts` holds them equal to `apiPaths`.
 */
export const siteScriptApi = {
  events: "/api/events",
  downloads: "/api/downloads",
} as const;
