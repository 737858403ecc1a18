import { readFile } from "node:fs/promises";
import { parse } from "smol-toml";

/**
 * The headers netlify.toml gives every path (`[[headers]] for = "/*"`): the security headers. Netlify
 * adds them to each answer it serves; the local server adds them to the answers it makes itself
 * (the plain 404 page, a refused method), which NetlifyDev never sees.
 */
export async function readSiteHeaders(netlifyToml: string): Promise<Record<string, string>> {
  const config = parse(await readFile(netlifyToml, "utf8")) as { headers?: { for?: string; values?: Record<string, unknown> }[] };
  const everyPath = (config.headers ?? []).filter((rule) => rule.for === "/*");
  return Object.fromEntries(
    everyPath.flatMap((rule) => Object.entries(rule.values ?? {})).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}
