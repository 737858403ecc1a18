import { readFile } from "node:fs/promises";
import { parse } from "smol-toml";

/**
 * Path prefixes that netlify.toml answers with status 404 (`[[redirects]]` with `status = 404`).
 * NetlifyDev serves such a rule's page but with status 200; Netlify itself answers 404, so the
 * local server restores the status for these paths.
 */
export async function readNotFoundRules(netlifyToml: string): Promise<((pathname: string) => boolean)[]> {
  const config = parse(await readFile(netlifyToml, "utf8")) as { redirects?: { from?: string; status?: number }[] };
  return (config.redirects ?? [])
    .filter((rule) => rule.status === 404 && typeof rule.from === "string")
    .map((rule) => {
      const from = rule.from as string;
      return from.endsWith("*") ? (pathname: string) => pathname.startsWith(from.slice(0, -1)) : (pathname: string) => pathname === from;
    });
}
