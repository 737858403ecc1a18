/**
 * The post cards' counts' API path, written out and apart from `site-script-paths.ts`: that object
 * sits whole in the script every page loads, and this path is needed only by the counts' own chunk
 * (`comment-counts.ts`). `page-script-paths.test.ts` holds it equal to `apiPaths`.
 */
export const commentCountsApi = "/api/comments/counts";
