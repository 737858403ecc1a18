import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
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
] as const)
  privateRanges.addSubnet(network, prefix, "ipv6");

export function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return privateRanges.check(address, "ipv4");
  if (version !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return mapped ? privateRanges.check(mapped, "ipv4") : privateRanges.check(address, "ipv6");
}

export interface ImageFetcherOptions {
  /** IMPORT_ALLOW_PRIVATE_HOSTS=1: tests serve images from loopback. */
  allowPrivateHosts: boolean;
  maxBytes?: number;
  timeoutMs?: number;
}

/** Each image: at most 20 MB, within 20 seconds, through at most 3 redirects. Why: docs/decisions/0036-importing-other-blogs.md. */
export const importImageLimits = { maxBytes: 20 * 1024 * 1024, timeoutMs: 20_000, maxRedirects: 3 };

async function checkHost(url: URL, allowPrivate: boolean): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`Only http and https addresses are fetched (${url.protocol})`);
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((entry) => entry.address);
  if (addresses.length === 0) throw new Error(`The host ${host} was not found`);
  if (addresses.some(isPrivateAddress)) throw new Error(`The host ${host} is a private or loopback address`);
}

/**
 * Fetches an image from an old site, for an import: http/https only, every hop's host checked
 * against private and loopback addresses (a redirect is followed by hand so each is checked), the
 * body cut off past the size limit, the whole fetch within the time limit.
 */
export function imageFetcher(options: ImageFetcherOptions): FetchImage {
  const maxBytes = options.maxBytes ?? importImageLimits.maxBytes;
  const timeoutMs = options.timeoutMs ?? importImageLimits.timeoutMs;
  return async (address) => {
    const signal = AbortSignal.timeout(timeoutMs);
    let url = new URL(address);
    try {
      for (let hop = 0; ; hop++) {
        await checkHost(url, options.allowPrivateHosts);
        const response = await fetch(url, { redirect: "manual", signal, headers: { accept: "image/*" } });
        const location = response.headers.get("location");
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          if (hop >= importImageLimits.maxRedirects) throw new Error("Too many redirects");
          url = new URL(location, url);
          continue;
        }
        if (!response.ok) {
          await response.body?.cancel();
          throw new Error(`The old site answered ${String(response.status)}`);
        }
        if (Number(response.headers.get("content-length") ?? "0") > maxBytes) {
          await response.body?.cancel();
          throw new Error(`Larger than ${String(maxBytes / 1024 / 1024)} MB`);
        }
        const chunks: Uint8Array[] = [];
        let size = 0;
        const reader = response.body?.getReader();
        for (;;) {
          const part = await reader?.read();
          if (!part || part.done) break;
          size += part.value.byteLength;
          if (size > maxBytes) {
            await reader?.cancel();
            throw new Error(`Larger than ${String(maxBytes / 1024 / 1024)} MB`);
          }
          chunks.push(part.value);
        }
        return { bytes: Buffer.concat(chunks), contentType: response.headers.get("content-type") };
      }
    } catch (error) {
      if (signal.aborted) throw new Error(`No answer within ${String(timeoutMs / 1000)} seconds`, { cause: error });
      throw error;
    }
  };
}
