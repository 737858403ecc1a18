/**
 * The Buy form's and the thank-you page's API paths, written out, for the reason account-paths.ts
 * gives. `page-script-paths.test.ts` holds them equal to `apiPaths`.
 */
export const checkoutApi = {
  checkout: "/api/checkout",
  status: "/api/checkout/status",
} as const;
