import { isbot } from "isbot";
import { UAParser } from "ua-parser-js";

/** The three device classes the dashboard shows. */
export type Device = "phone" | "tablet" | "desktop";

/** What a page view is counted under, taken from the beacon's report and the request; nothing personal. */
export interface PageViewDimensions {
  path: string;
  /** The referrer's site or `utm_source`; `""` when the page was reached from the site itself (or typed in). */
  source: string;
  utmMedium: string;
  utmCampaign: string;
}

const maxPathLength = 300;
/** A source, medium or campaign is a short name; a longer value is cut here (docs/decisions/0054-numbers-no-one-can-fake.md). */
export const maxLabelLength = 60;

/** A browser's user agent that a maintained list (isbot) calls a crawler, or none at all. */
export function isBotAgent(userAgent: string): boolean {
  return userAgent.trim() === "" || isbot(userAgent);
}

/** Phone, tablet or desktop, from the user agent (ua-parser-js: `mobile` is a phone; TVs, consoles and the unknown count as desktop). */
export function deviceOf(userAgent: string): Device {
  const type = new UAParser(userAgent).getDevice().type;
  if (type === "mobile" || type === "wearable") return "phone";
  if (type === "tablet") return "tablet";
  return "desktop";
}

/**
 * A path as the dashboard lists it: decoded, no query or fragment, no trailing slash (the site
 * answers `/blog/x` and `/blog/x/` alike), at most 300 characters.
 */
export function normalPath(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURI(pathname);
  } catch {
    // A malformed escape: keep it as sent.
  }
  path = path.replace(/\/+$/, "") || "/";
  return path.slice(0, maxPathLength);
}

/** A referrer's host as a source: lower case, without `www.`, at most `maxLabelLength` characters. */
function siteOf(referrer: string): string | null {
  try {
    const url = new URL(referrer);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return (
      url.hostname
        .toLowerCase()
        .replace(/^www\./, "")
        .slice(0, maxLabelLength) || null
    );
  } catch {
    return null;
  }
}

/** Looks like it holds an email address (an `@`, written or percent-encoded): such a value is never stored. */
export const isAddressLike = (value: string) => /@|%40|\uff20/i.test(value);

/**
 * A `utm_…` value as the dashboard lists it: Unicode-normalised (NFKC), lower case, control and
 * invisible characters removed, runs of spaces made one, a leading `www.` dropped, at most
 * `maxLabelLength` characters; `""` for one that looks like an email address.
 */
export function normalLabel(value: string | null): string {
  const text = (value ?? "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^www\./, "");
  if (isAddressLike(text)) return "";
  return text.slice(0, maxLabelLength).trim();
}

const label = normalLabel;

/**
 * The page and where the visitor came from, from the page's address and its referrer. `utm_source`
 * wins over the referrer; a referrer on the site itself (`siteHosts`) is no source, so moving from
 * page to page keeps the visit's first source (see the rollups).
 */
export function pageViewDimensions(pageUrl: URL, referrer: string, siteHosts: readonly string[]): PageViewDimensions {
  const params = pageUrl.searchParams;
  const utmSource = label(params.get("utm_source"));
  const referrerSite = siteOf(referrer);
  const own = new Set(siteHosts.map((host) => host.toLowerCase().replace(/^www\./, "")));
  const source = utmSource || (referrerSite && !own.has(referrerSite) ? referrerSite : "");
  return {
    path: normalPath(pageUrl.pathname),
    source,
    utmMedium: label(params.get("utm_medium")),
    utmCampaign: label(params.get("utm_campaign")),
  };
}
