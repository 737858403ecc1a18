import { lookup } from "node:dns/promises";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import type { FetchImage } from "../core/imports/import-posts.ts";

/** Addresses an import never fetches from (unless allowed for tests): loopback, private, link-local, reserved. */
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  privateRanges.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  // IPv4 addresses inside IPv6 that a resolver may hand back for a private one: IPv4-compatible, NAT64 (RFC 6052, RFC 8215), 6to4.
  ["::", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["2002::", 16],
] as const)
  privateRanges.addSubnet(network, prefix, "ipv6");

export function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return privateRanges.check(address, "ipv4");
  if (version !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return mapped ? privateRanges.check(mapped, "ipv4") : privateRanges.check(address, "ipv6");
}

/** A host's addresses, as `dns.lookup(host, { all: true })` gives them; tests inject their own (no real DNS). */
export type ResolveHost = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: ResolveHost = (host) => lookup(host, { all: true });

export interface ImageFetcherOptions {
  /** IMPORT_ALLOW_PRIVATE_HOSTS=1: tests serve images from loopback. */
  allowPrivateHosts: boolean;
  maxBytes?: number;
  timeoutMs?: number;
  resolve?: ResolveHost;
}

/** Each image: at most 20 MB, within 20 seconds, through at most 3 redirects. Why: docs/decisions/0036-importing-other-blogs.md. */
export const importImageLimits = { maxBytes: 20 * 1024 * 1024, timeoutMs: 20_000, maxRedirects: 3 };

export const privateHostMessage = (host: string) => `The host ${host} is a private or loopback address`;

/** An address written in the URL itself (no lookup happens for it): checked as it is. */
function checkUrl(url: URL, allowPrivate: boolean): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`Only http and https addresses are fetched (${url.protocol})`);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !allowPrivate && isPrivateAddress(host)) throw new Error(privateHostMessage(host));
}

/**
 * The socket's own DNS lookup: the host is resolved once, every address it answers is checked, and
 * the connection goes to one of those very addresses. Checking first and then connecting by name
 * would resolve twice, and a second answer (DNS rebinding) could point at a private address.
 */
export function checkedLookup(resolve: ResolveHost, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const answer = async () => {
      const found = await resolve(hostname).catch(() => []);
      if (found.length === 0) throw new Error(`The host ${hostname} was not found`);
      if (!allowPrivate && found.some((entry) => isPrivateAddress(entry.address))) throw new Error(privateHostMessage(hostname));
      const wanted = options.family === 4 || options.family === 6 ? found.filter((entry) => entry.family === options.family) : found;
      if (wanted.length === 0) throw new Error(`The host ${hostname} was not found`);
      return wanted;
    };
    answer().then(
      (wanted) => {
        const [first] = wanted as [{ address: string; family: number }];
        if (options.all) callback(null, wanted);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => {
        callback(error as NodeJS.ErrnoException, "", 0);
      },
    );
  };
}

function request(url: URL, lookupHost: LookupFunction, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    // No shared agent: each request opens its own connection, through the checked lookup.
    const sent = client.request(url, { method: "GET", lookup: lookupHost, signal, agent: false, headers: { accept: "image/*" } }, resolve);
    sent.on("error", reject);
    sent.end();
  });
}

/**
 * Fetches an image from an old site, for an import: http/https only, every hop's addresses checked
 * against private and loopback ones as the connection is made (a redirect is followed by hand so
 * each is checked), the body cut off past the size limit, the whole fetch within the time limit.
 */
export function imageFetcher(options: ImageFetcherOptions): FetchImage {
  const maxBytes = options.maxBytes ?? importImageLimits.maxBytes;
  const timeoutMs = options.timeoutMs ?? importImageLimits.timeoutMs;
  const lookupHost = checkedLookup(options.resolve ?? systemResolve, options.allowPrivateHosts);
  const tooLarge = () => new Error(`Larger than ${String(maxBytes / 1024 / 1024)} MB`);
  return async (address) => {
    const signal = AbortSignal.timeout(timeoutMs);
    let url = new URL(address);
    try {
      for (let hop = 0; ; hop++) {
        checkUrl(url, options.allowPrivateHosts);
        const response = await request(url, lookupHost, signal);
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.destroy();
          if (hop >= importImageLimits.maxRedirects) throw new Error("Too many redirects");
          url = new URL(location, url);
          continue;
        }
        if (status < 200 || status >= 300) {
          response.destroy();
          throw new Error(`The old site answered ${String(status)}`);
        }
        if (Number(response.headers["content-length"] ?? "0") > maxBytes) {
          response.destroy();
          throw tooLarge();
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of response) {
          size += (chunk as Buffer).byteLength;
          if (size > maxBytes) {
            response.destroy();
            throw tooLarge();
          }
          chunks.push(chunk as Buffer);
        }
        return { bytes: Buffer.concat(chunks), contentType: response.headers["content-type"] ?? null };
      }
    } catch (error) {
      if (signal.aborted) throw new Error(`No answer within ${String(timeoutMs / 1000)} seconds`, { cause: error });
      throw error;
    }
  };
}
