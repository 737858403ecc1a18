import { appendFile } from "node:fs/promises";
import type { AstroIntegration } from "astro";

/**
 * The admin page's path is a secret known only at build time, so its headers can't sit in
 * netlify.toml: this writes them into the built site's `_headers` file, which Netlify (and the
 * local server, through @netlify/dev) applies. Search engines are told not to index the page
 * even if its address leaks, and no cache keeps a copy.
 */
export function adminHeaders(adminPath: string | undefined): AstroIntegration {
  return {
    name: "no-filter:admin-headers",
    hooks: {
      "astro:build:done": async ({ dir }) => {
        if (!adminPath) return;
        const rules = ["X-Robots-Tag: noindex, nofollow", "Cache-Control: no-store"];
        const block = (pattern: string) => [pattern, ...rules.map((rule) => `  ${rule}`)].join("\n");
        await appendFile(new URL("_headers", dir), `${block(`/${adminPath}`)}\n${block(`/${adminPath}/*`)}\n`);
      },
    },
  };
}
