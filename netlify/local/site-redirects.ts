import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { parseRedirectsFile } from "../../src/lib/post-redirects.ts";

/**
 * The build's `_redirects` (old post addresses → their page), answered as Netlify answers it.
 * NetlifyDev reads that file once when it starts, but every publish writes a new one, so the
 * local server reads it again whenever a new build is swapped in, or an incremental build rewrote
 * it in place (docs/decisions/0089-incremental-site-build.md).
 */
export function siteRedirects(publishDir: string, pageExists: (pathname: string) => Promise<boolean>) {
  let current: { build: string; written: number; rules: ReturnType<typeof parseRedirectsFile> } | undefined;
  return async (pathname: string): Promise<Response | undefined> => {
    const build = await realpath(publishDir).catch(() => undefined);
    if (!build) return undefined;
    const file = path.join(build, "_redirects");
    const written = (await stat(file).catch(() => undefined))?.mtimeMs ?? 0;
    if (current?.build !== build || current.written !== written) {
      const text = await readFile(file, "utf8").catch(() => "");
      current = { build, written, rules: parseRedirectsFile(text) };
    }
    const rule = current.rules.get(pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname);
    // As on Netlify, a rule applies only where no page exists.
    if (!rule || (await pageExists(pathname))) return undefined;
    return new Response(null, { status: rule.status, headers: { location: rule.to, "cache-control": "no-cache" } });
  };
}
