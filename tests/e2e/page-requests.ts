import type { Page, Request } from "@playwright/test";

export interface RequestLog {
  /**
   * The matching requests the page has started so far, every one of them: the page fetches a
   * marker first, and the browser reports requests in the order the page started them.
   */
  soFar(): Promise<Request[]>;
  stop(): void;
}

/** Records the requests `page` starts from now on that match `wanted`. */
export function recordRequests(page: Page, wanted: (request: Request) => boolean): RequestLog {
  const seen: Request[] = [];
  const listener = (request: Request) => {
    if (wanted(request)) seen.push(request);
  };
  page.on("request", listener);
  return {
    async soFar() {
      await page.evaluate(async () => {
        await fetch("/api/health", { cache: "no-store" });
      });
      return seen.slice();
    },
    stop: () => page.off("request", listener),
  };
}

/** The page's call to the API at `pathname` with `method` (the path without its query). */
export const apiCall = (method: string, pathname: string | RegExp) => (request: Request) => {
  const path = new URL(request.url()).pathname;
  return request.method() === method && (typeof pathname === "string" ? path === pathname : pathname.test(path));
};
