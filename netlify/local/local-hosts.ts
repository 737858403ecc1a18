import type { IncomingMessage } from "node:http";
import { isIPv6 } from "node:net";

const loopbackNames = ["localhost", "127.0.0.1", "[::1]"];

/**
 * Which Host headers `npm start` answers. A page on any website can point its own name at
 * 127.0.0.1 (DNS rebinding) and then read this server as if it were its own origin: the Origin it
 * sends matches the forged Host, so a same-origin check alone lets it read the local inbox, tokens
 * included. Only names this machine controls are answered: localhost, 127.0.0.1, [::1] and
 * SITE_URL's host name (any port). An IP address the connection really arrived at is answered too:
 * it is no name DNS could rebind, and it is what the Image CDN's emulation fetches back from when
 * HOST opens the server to the network.
 */
export function localHostCheck(siteUrl: string): (req: IncomingMessage) => boolean {
  const names = new Set([...loopbackNames, new URL(siteUrl).hostname]);
  return (req) => {
    const name = hostName(req.headers.host);
    if (name === undefined) return false;
    return names.has(name) || name === ipName(req.socket.localAddress);
  };
}

/** What `npm start` answers to a Host it does not serve, with the way to serve it. */
export function misdirected(host: string | undefined, siteUrl: string, api: boolean): Response {
  const siteName = new URL(siteUrl).hostname;
  const names = loopbackNames.includes(siteName) ? "localhost, 127.0.0.1 and [::1]" : `localhost, 127.0.0.1, [::1] and ${siteName} (SITE_URL)`;
  const error = `This server answers only to ${names}, not to the host "${host ?? ""}". To reach it under another name, set SITE_URL to that address.`;
  return api
    ? Response.json({ error }, { status: 421, headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" } })
    : new Response(`${error}\n`, {
        status: 421,
        headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
      });
}

// A name or an IP, and a port: nothing else may be in a Host header (no user info, no path).
const hostPattern = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::[0-9]{1,5})?$/i;

/** The Host header's name as a URL spells it (lowercase, IPv6 in brackets and shortened). */
function hostName(host: string | undefined): string | undefined {
  if (!host || !hostPattern.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

function ipName(address: string | undefined): string | undefined {
  if (!address) return undefined;
  return hostName(isIPv6(address) ? `[${address}]` : address);
}
