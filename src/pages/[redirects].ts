import type { APIRoute, GetStaticPaths } from "astro";
import { loadImportRedirects, loadPostRedirects, loadTagRedirects, loadTags } from "../lib/build-data.ts";
import { redirectsFile } from "../lib/post-redirects.ts";

// Astro leaves `_`-prefixed files out of routing, so the file's name comes in as a parameter.
export const getStaticPaths = (() => [{ params: { redirects: "_redirects" } }]) satisfies GetStaticPaths;

/** Netlify's `_redirects`, written with the site: old post addresses (and imported posts' old paths) → their page, renamed tags' old lists → the new ones (lib/post-redirects.ts). */
export const GET: APIRoute = async () => {
  const counts = new Map((await loadTags()).map((tag) => [tag.slug, tag.postCount]));
  const tagRedirects = (await loadTagRedirects()).map((redirect) => ({ ...redirect, postCount: counts.get(redirect.to) ?? 0 }));
  return new Response(redirectsFile(await loadPostRedirects(), await loadImportRedirects(), tagRedirects), {
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
};
