/**
 * The reader's API paths, written out: importing `apiPaths` would put the whole table in a chunk
 * shared with every page's script (an extra request on every page, and /account over its 5 KB).
 * `account-page.test.ts` holds them equal to `apiPaths`.
 */
export const readerApi = {
  signIn: "/api/readers/sign-in",
  verify: "/api/readers/sign-in/verify",
  signOut: "/api/readers/sign-out",
  me: "/api/readers/me",
  exportData: "/api/readers/me/export",
} as const;
