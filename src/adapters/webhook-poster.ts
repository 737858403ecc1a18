import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { performance } from "node:perf_hooks";
import { WebhookPostFailure, type CheckWebhookHost, type PostWebhook } from "../core/webhooks/webhook-delivery.ts";
import { checkedLookup, isPrivateAddress, privateHostMessage, systemResolve, type ResolveHost } from "./image-fetcher.ts";

export interface WebhookPosterOptions {
  /** `npm start` and tests: loopback and private addresses may be reached. Never in production. */
  allowPrivateHosts: boolean;
  /** Default 10 s: past it the attempt failed and is retried. */
  timeoutMs?: number;
  resolve?: ResolveHost;
}

/** How much of an answer is read (and kept for the delivery log): its first 2 KB. */
const keptBytes = 2048;

/** A refusal of the address itself (private or loopback): final, not retried. */
const refusedAddress = (message: string) => message.includes("private or loopback");

/**
 * POSTs one webhook delivery with the import's SSRF rules (src/adapters/image-fetcher.ts): the host
 * resolved once and every address checked as the connection is made (no second lookup a rebinding
 * could answer), an IP written in the URL checked as it is, redirects never followed (a 3xx is the
 * answer), the whole exchange within the time limit, and only the answer's first 2 KB read.
 */
export function webhookPoster(options: WebhookPosterOptions): PostWebhook {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const lookup = checkedLookup(options.resolve ?? systemResolve, options.allowPrivateHosts);
  return ({ url: address, headers, body }) => {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    return new Promise((resolve, reject) => {
      const url = new URL(address);
      const fail = (message: string, cause?: unknown) => {
        reject(new WebhookPostFailure(message, { durationMs: elapsed(), refused: refusedAddress(message), cause }));
      };
      if (url.protocol !== "https:" && url.protocol !== "http:") return fail(`Only http and https addresses are called (${url.protocol})`);
      const host = url.hostname.replace(/^\[|\]$/g, "");
      if (isIP(host) && !options.allowPrivateHosts && isPrivateAddress(host)) return fail(privateHostMessage(host));
      const client = url.protocol === "https:" ? https : http;
      const signal = AbortSignal.timeout(timeoutMs);
      const request = client.request(
        url,
        {
          method: "POST",
          lookup,
          signal,
          // No shared agent: each delivery opens its own connection, through the checked lookup.
          agent: false,
          headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => {
            response.destroy();
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8").slice(0, keptBytes), durationMs: elapsed() });
          };
          response.on("data", (chunk: Buffer) => {
            if (size < keptBytes) chunks.push(chunk.subarray(0, keptBytes - size));
            size += chunk.byteLength;
            if (size >= keptBytes) done();
          });
          response.on("end", done);
          response.on("error", (error) => {
            if (size > 0) done();
            else fail(signal.aborted ? `No answer within ${String(timeoutMs / 1000)} seconds` : error.message, error);
          });
        },
      );
      request.on("error", (error) => {
        fail(signal.aborted ? `No answer within ${String(timeoutMs / 1000)} seconds` : error.message, error);
      });
      request.end(body);
    });
  };
}

/**
 * The delivery's address rule, applied when the owner saves an endpoint: an IP written in the URL
 * as it is, a name by every address it resolves to; any private or loopback one refuses it (unless
 * private hosts are allowed: `npm start`). A name not found is let through: the deliveries check
 * again on every connection, and a DNS record may come after the endpoint.
 */
export function webhookHostCheck(options: Pick<WebhookPosterOptions, "allowPrivateHosts" | "resolve">): CheckWebhookHost {
  const resolveHost = options.resolve ?? systemResolve;
  return async (url) => {
    if (options.allowPrivateHosts) return undefined;
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host)) return isPrivateAddress(host) ? privateHostMessage(host) : undefined;
    const found = await resolveHost(host).catch(() => []);
    return found.some((entry) => isPrivateAddress(entry.address)) ? privateHostMessage(host) : undefined;
  };
}
