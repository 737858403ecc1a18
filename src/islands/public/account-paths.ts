/**
 * The reader page's API paths, written out: importing `apiPaths` from a page script put the whole
 * table in a chunk shared with every page's script (an extra request on every page, and /account
 * over its 5 KB). Only the reader page imports this file, so it is bundled into that page's script.
 * `page-script-paths.test.ts` holds these paths equal to `apiPaths`.
 */
export const readerApi = {
  signIn: "/api/readers/sign-in",
  verify: "/api/readers/sign-in/verify",
  signOut: "/api/readers/sign-out",
  me: "/api/readers/me",
  exportData: "/api/readers/me/export",
  replyNotices: "/api/readers/me/reply-notices",
  payments: "/api/readers/me/payments",
  billingPortal: "/api/billing-portal",
} as const;
