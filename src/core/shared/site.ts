/** Thrown when something needs the site's public address and `SITE_URL` is not set. */
export class MissingSiteUrlError extends Error {
  constructor(purpose: string) {
    super(`SITE_URL is not set: ${purpose}, so set SITE_URL to the site's public address (https://your-domain)`);
    this.name = "MissingSiteUrlError";
  }
}

/**
 * The public site: its address, host and name, and the one place absolute links and Message-IDs
 * are made. Reading `url` without an address configured throws `MissingSiteUrlError`, so a site
 * build (which needs no address) can still put an app together.
 */
export interface Site {
  readonly name: string;
  /** The public address without a trailing slash, e.g. `https://example.com`. */
  readonly url: string;
  /** Host name without port: the part of Message-IDs after `@`, and passkeys' RP ID. */
  readonly host: string;
  /** An absolute URL for a path on the site. */
  absolute(path: string): string;
  /** A Message-ID (`<local@host>`) on the site's host. */
  messageId(local: string): string;
}

export const siteName = "No Filter";

/** The site at `url` (SITE_URL), or one whose address throws when read. */
export function siteAt(url: string | undefined, name = siteName): Site {
  const address = () => {
    if (!url) throw new MissingSiteUrlError("links and passkeys need the site's public address");
    return url.replace(/\/+$/, "");
  };
  return {
    name,
    get url() {
      return address();
    },
    get host() {
      return new URL(address()).hostname;
    },
    absolute: (path) => new URL(path, `${address()}/`).toString(),
    messageId: (local) => `<${local}@${new URL(address()).hostname}>`,
  };
}
