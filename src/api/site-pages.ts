/**
 * What the pages the API answers with (previews, the subscription pages) share with the built site:
 * its templates, fetched from the site that answers the request, and the site's headers.
 */

/** Fetches a built template page by its path. */
export type LoadTemplate = (path: string) => Promise<string>;

/** The built templates, fetched from the site that answers `request` (its CDN on Netlify, itself under npm start). */
export function siteTemplates(request: Request, timeoutMs = 10_000): LoadTemplate {
  const origin = new URL(request.url).origin;
  return async (path) => {
    const response = await fetch(new URL(path, origin), { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`The template ${path} answered ${String(response.status)}: is the site built?`);
    return response.text();
  };
}

/** As netlify.toml's for the built pages, which a function's answer does not get (Pagefind's search runs WebAssembly). */
export const sitePageCsp =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-l9neg4UcB8FKHJHMWfLYMXfF9VQ+Y4FE0wPdIzhqt8A='; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

/** As netlify.toml's for the built pages: no page of the site uses the camera, the microphone or the location. */
export const sitePermissionsPolicy = "camera=(), microphone=(), geolocation=()";

/** HSTS for a year, as netlify.toml's; sent over HTTPS only (a browser ignores it on plain HTTP, as under `npm start`). */
export const siteTransportSecurity = "max-age=31536000";

/**
 * The headers netlify.toml gives the built pages, which a function's answer does not get: the
 * Permissions-Policy on a page (HTML), and HSTS on any answer over HTTPS. Headers already set win.
 */
export function withSiteHeaders(request: Request, response: Response): Response {
  if (!response.headers.has("permissions-policy") && (response.headers.get("content-type") ?? "").startsWith("text/html")) {
    response.headers.set("permissions-policy", sitePermissionsPolicy);
  }
  if (new URL(request.url).protocol === "https:" && !response.headers.has("strict-transport-security")) {
    response.headers.set("strict-transport-security", siteTransportSecurity);
  }
  return response;
}
