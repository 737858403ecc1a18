/**
 * The page-view beacon: one `navigator.sendBeacon` to `POST /api/events` with the page's address,
 * its referrer, and whether it is the "not found" page. Sent once the page has loaded and the
 * browser is idle, so it never competes with the page itself; no cookie, no storage, nothing read
 * from the device (docs/decisions/0032-cookieless-stats.md). Kept free of imports but the API's
 * paths, so it stays a few hundred bytes.
 */
import { siteScriptApi } from "./site-script-paths.ts";

function send(): void {
  const notFound = "notFound" in document.body.dataset;
  navigator.sendBeacon(siteScriptApi.events, JSON.stringify({ url: location.href, referrer: document.referrer, ...(notFound && { notFound }) }));
}

function whenIdle(): void {
  if ("requestIdleCallback" in window) requestIdleCallback(send, { timeout: 5000 });
  else setTimeout(send, 0);
}

if ("sendBeacon" in navigator) {
  if (document.readyState === "complete") whenIdle();
  else addEventListener("load", whenIdle, { once: true });
}
