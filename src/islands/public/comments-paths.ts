/**
 * The comments' API paths, written out (as `account-paths.ts`): the post page's script must not
 * import `apiPaths`, whose whole table would join every page's script. `page-script-paths.test.ts`
 * holds these paths equal to the API's. `:id` is a post's id or a comment's.
 */
export const commentsApi = {
  postComments: "/api/posts/:id/comments",
  comment: "/api/comments/:id",
  readerMe: "/api/readers/me",
} as const;

/** A path with its `:id` filled in. */
export const withId = (path: string, id: number | string): string => path.replace(":id", encodeURIComponent(String(id)));

