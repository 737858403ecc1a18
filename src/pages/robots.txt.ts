import type { APIContext } from "astro";

/** Everything public may be crawled. The dashboard is not listed here: its path stays unsaid. */
export function GET(context: APIContext) {
  const sitemap = context.site ? `Sitemap: ${new URL("/sitemap-index.xml", context.site).href}\n` : "";
  return new Response(`User-agent: *\nAllow: /\n${sitemap}`, { headers: { "content-type": "text/plain; charset=utf-8" } });
}
