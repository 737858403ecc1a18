import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { once } from "node:events";
import { createGzip } from "node:zlib";

/** Text types Netlify's CDN compresses; images, PDFs and archives are compressed already. */
const compressible = /^(text\/|application\/(javascript|json|xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;

/**
 * Gzip, as Netlify's CDN applies in production. Without it the local site sent its stylesheet
 * and every page uncompressed, and Lighthouse counted render-blocking time that production does
 * not have (docs/decisions/0003-local-server-gzip.md).
 */
function shouldGzip(acceptEncoding: string | undefined, response: Response): boolean {
  if (!/\bgzip\b/.test(acceptEncoding ?? "") || response.headers.has("content-encoding")) return false;
  return compressible.test(response.headers.get("content-type") ?? "");
}

/** A web `Request` for a Node request; the body streams through untouched. */
export function toWebRequest(req: IncomingMessage): Request {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method ?? "GET",
    headers,
    ...(hasBody && { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" }),
  });
}

/**
 * Writes a web `Response` to a Node response, keeping each Set-Cookie header separate, gzipped
 * when the client accepts it and the type is text.
 */
export async function sendWebResponse(res: ServerResponse, response: Response, method = "GET", acceptEncoding?: string): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!response.body || method === "HEAD") {
    res.end();
    await response.body?.cancel();
    return;
  }
  if (!shouldGzip(acceptEncoding, response)) return writeBody(response.body, res);
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  res.removeHeader("content-length");
  res.setHeader("content-encoding", "gzip");
  res.setHeader("vary", [response.headers.get("vary"), "Accept-Encoding"].filter(Boolean).join(", "));
  await pipeline(body, createGzip(), res);
}

/**
 * Copies a web body to the Node response chunk by chunk, waiting for the socket when it is full.
 * Most API answers are one chunk: those go out with `res.end(chunk)`, one write with a
 * Content-Length, instead of chunked encoding's two (the chunk, then the terminator). Reading the
 * web stream directly rather than through the Node stream `Readable.fromWeb` wraps around it, and
 * the single write, are what let the local server keep up with reads under load
 * (docs/decisions/0007-local-server-direct-body-write.md). Big bodies (the CSV export, files) still
 * stream with flat memory.
 */
async function writeBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  try {
    let chunk = await reader.read();
    while (!chunk.done) {
      if (res.destroyed) throw new Error("The client went away before the answer was sent");
      const next = await reader.read();
      if (next.done) {
        res.end(chunk.value);
        break;
      }
      if (!res.write(chunk.value)) await Promise.race([once(res, "drain"), once(res, "close")]);
      chunk = next;
    }
    if (!res.writableEnded) res.end();
    await finished(res);
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    res.destroy();
    throw error;
  }
}
