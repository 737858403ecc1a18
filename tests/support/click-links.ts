import { testOrigin, type TestApp } from "./test-app.ts";

/** What a desktop browser says it is: isbot (rightly) drops headless agents, and a click is counted for a person. */
export const desktopAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** The click-redirect links of a mail's HTML, in order. */
export const clickLinks = (html: string) =>
  [...html.matchAll(/href="([^"]*\/api\/newsletter\/click\?[^"]*)"/g)].map((match) => (match[1] ?? "").replaceAll("&amp;", "&"));

/** Follows one click link as the reader's browser would, without following its redirect. */
export const followClick = (app: TestApp, url: string, userAgent = desktopAgent) => {
  const link = new URL(url, testOrigin);
  return app.call(link.pathname + link.search, { headers: { "user-agent": userAgent }, redirect: "manual" });
};
