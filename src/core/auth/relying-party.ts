import type { ServerEnv } from "../../config/server-env.ts";

/** Who passkeys are made for: the site's host (RP ID) and origin, from `SITE_URL`. */
export interface RelyingParty {
  /** The host without port (`localhost` under `npm start`, the site's domain on Netlify). */
  id: string;
  /** The exact origin the browser reports (`http://localhost:8888`, `https://example.com`). */
  origin: string;
  name: string;
}

/** Thrown when passkeys are used without `SITE_URL`: a passkey is bound to the site's address. */
export class MissingSiteUrlError extends Error {
  constructor() {
    super("SITE_URL is not set: passkeys are bound to the site's address, so set SITE_URL to it (https://your-domain)");
    this.name = "MissingSiteUrlError";
  }
}

export function relyingParty(env: Pick<ServerEnv, "SITE_URL">): RelyingParty {
  if (!env.SITE_URL) throw new MissingSiteUrlError();
  const url = new URL(env.SITE_URL);
  return { id: url.hostname, origin: url.origin, name: "No Filter" };
}
