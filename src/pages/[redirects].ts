import type { APIRoute, GetStaticPaths } from "astro";
import { loadImportRedirects, loadPostRedirects } from "../lib/build-data.ts";
import { redirectsFile } from "../lib/post-redirects.ts";

// Astro leaves `_`-prefixed files out of routing, so the file's name comes in as a parameter.
export const getStaticPaths = (() => [{ params: { redirects: "_redirects" } }]) satisfies GetStaticPaths;

/** Netlify's `_redirects`, written with the site: old post addresses (and imported posts' old paths) → their page (lib/post-redirects.ts). */
export const GET: APIRoute = async () =>
  new Response(redirectsFile(await loadPostRedirects(), await loadImportRedirects()), { headers: { "content-type": "text/plain; charset=utf-8" } });
