/**
 * "Open on your server" of the follow box: the reader types their own server (or their whole
 * address) and is sent to that server's remote-interaction page, which Mastodon (since 2.5), and
 * Friendica, Akkoma and others after it, answer at `/authorize_interaction?uri=`: signed in there,
 * the reader sees the site's profile with a Follow button (docs/decisions/0088-follow-box.md).
 */

/** Where the reader's server is remembered between visits (their choice, on their device only). */
export const rememberedServerKey = "fediverse-server";

const hostPattern = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?::\d{1,5})?$|^localhost(?::\d{1,5})?$/;

/**
 * The server's host (`mastodon.social`, `localhost:9121`) from what a reader types: a domain,
 * an address (`https://mastodon.social/@me`) or their handle (`@me@mastodon.social`), else null.
 */
export function serverFromInput(input: string): string | null {
  let text = input.trim().toLowerCase();
  if (text === "") return null;
  // A handle (`@me@server`, `me@server`): the server is after the last @.
  if (!/^https?:\/\//.test(text) && text.includes("@")) text = text.slice(text.lastIndexOf("@") + 1);
  let host: string;
  try {
    host = new URL(/^https?:\/\//.test(text) ? text : `https://${text}`).host;
  } catch {
    return null;
  }
  return hostPattern.test(host) ? host : null;
}

/**
 * The reader's server's page that opens `handle` (`@nofilter@example.com`) for following. Https,
 * but for a server on this machine (the local servers tests and `npm start` run, which speak http).
 */
export function interactionUrl(server: string, handle: string): string {
  const scheme = /^localhost(:|$)/.test(server) ? "http" : "https";
  return `${scheme}://${server}/authorize_interaction?uri=${encodeURIComponent(handle.replace(/^@/, ""))}`;
}
