/**
 * The site's fediverse name (issue 45 point 1): `@{handle}@{host}`. The handle is the
 * `fediverse_handle` setting, by default the site's name in lower case without spaces or
 * punctuation ("No Filter" → "nofilter").
 */

export { handlePattern } from "../settings/settings.schema.ts";

/** The site's name as a handle: lower case, letters and digits only. */
export const handleFromName = (name: string): string =>
  name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .slice(0, 30);

/** The handle a visitor types into their own server's search: `@nofilter@example.com`. */
export const fullHandle = (handle: string, host: string): string => `@${handle}@${host}`;
