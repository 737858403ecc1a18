import { siteName, type Site } from "../shared/site.ts";

/** Who passkeys are made for: the site's host (RP ID) and origin, from `SITE_URL`. */
export interface RelyingParty {
  /** The host without port (`localhost` under `npm start`, the site's domain on Netlify). */
  id: string;
  /** The exact origin the browser reports (`http://localhost:8888`, `https://example.com`). */
  origin: string;
  name: string;
}

/** Throws `MissingSiteUrlError` without `SITE_URL`: a passkey is bound to the site's address. */
export function relyingParty(site: Site): RelyingParty {
  const url = new URL(site.url);
  return { id: url.hostname, origin: url.origin, name: siteName };
}
