/**
 * Asks for the static site to be rebuilt after content changed. Never throws. `waitUntil` (from
 * the platform's request context) keeps a function alive for work that outlasts the response.
 */
export type RequestRebuild = (options?: { waitUntil?: (promise: Promise<unknown>) => void }) => void;
