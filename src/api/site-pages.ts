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
