import { readFile, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import path from "node:path";
import type { NetlifyDev } from "@netlify/dev";
import type { ClientInfo } from "../../src/api/api-handler.ts";
import { isAccountCommentsPath } from "../../src/api/account-comments-page.ts";
import { commentsPageSlug } from "../../src/api/comments-page.ts";
import { previewPathPrefix } from "../../src/core/posts/preview-links.service.ts";
import { answerApiReference } from "./api-reference.ts";
import { createImageCache } from "./image-cache.ts";
import { answerInbox } from "./inbox.ts";
import { localHostCheck, misdirected } from "./local-hosts.ts";
import type { MailCatcher } from "./mail-catcher.ts";
import { sendWebResponse, toWebRequest } from "./node-http.ts";
import { siteRedirects } from "./site-redirects.ts";
import type { LocalHub } from "./websub-hub.ts";

/** What the server answers with once the site is ready. */
export interface LocalSite {
  /** The API, answered in-process by one warm app (as by a warm instance on Netlify). */
  api: (request: Request, client: ClientInfo) => Promise<Response>;
  /** `/preview/*`, answered in-process as the `preview` function answers on Netlify. */
  preview?: (request: Request) => Promise<Response>;
  /** `/blog/{slug}/comments/`, answered in-process as the `comments-page` function answers on Netlify. */
  commentsPage?: (request: Request) => Promise<Response>;
  /** WebFinger, NodeInfo and `/fediverse/*`, answered in-process as the `fediverse` function answers on Netlify. */
  fediverse?: (request: Request) => Promise<Response>;
  /** `/account/comments/`, answered in-process as the `account-comments-page` function answers on Netlify. */
  accountCommentsPage?: (request: Request) => Promise<Response>;
  /** Static files, `netlify.toml` headers and redirects, Blobs. */
  netlifyDev: Pick<NetlifyDev, "handleAndIntrospectNodeRequest">;
  publishDir: string;
  /** The headers netlify.toml gives every path (site-headers.ts), for the answers this server makes itself. */
  siteHeaders?: Record<string, string>;
  /** Paths netlify.toml answers with status 404 (see not-found-rules.ts). */
  notFoundRules: ((pathname: string) => boolean)[];
  /** Path of the local build hook; a POST there asks for a rebuild. */
  buildHookPath: string;
  onBuildHook: () => void;
  /** The local SMTP catcher behind the inbox page; undefined when SMTP_URL sends mail out. */
  mailCatcher: MailCatcher | undefined;
  /** The local WebSub hub (websub-hub.ts): the pings the site sent it, shown on its page. */
  websubHub?: LocalHub | undefined;
}

/**
 * The `npm start` server: `/api/*` in-process, the build hook, the API reference, the local inbox,
 * the local WebSub hub, then Netlify's static handling. Only to the hosts of this machine and SITE_URL (local-hosts.ts).
 * It listens before the site is ready (so a taken port fails at once, before the database opens)
 * and answers 503 until `site()` returns the site.
 */
export function createLocalServer(site: () => LocalSite | undefined, { siteUrl }: { siteUrl: string }): Server {
  const isLocalHost = localHostCheck(siteUrl);
  let redirects: { publishDir: string; answer: ReturnType<typeof siteRedirects> } | undefined;
  const redirectsOf = (publishDir: string) => {
    if (redirects?.publishDir !== publishDir)
      redirects = { publishDir, answer: siteRedirects(publishDir, (pathname) => builtPageExists(publishDir, pathname)) };
    return redirects.answer;
  };
  return createServer((req, res) => {
    const ready = site();
    const answer = !isLocalHost(req)
      ? Promise.resolve(misdirected(req.headers.host, siteUrl, isApiPath(pathOf(req))))
      : ready
        ? respond(ready, req, redirectsOf(ready.publishDir))
        : Promise.resolve(starting());
    answer
      .then((response) => sendWebResponse(res, response, req.method, req.headers["accept-encoding"]))
      .catch((error: unknown) => {
        // The client went away mid-response (a closed tab, an aborted fetch): nothing to answer.
        if (res.destroyed || req.socket.destroyed) return;
        console.error(`[server] ${req.method ?? "GET"} ${req.url ?? "/"} failed:`, error);
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        res.end("Internal server error");
      });
  });
}

const imageCdnPath = "/.netlify/images";
const imageCache = createImageCache();

function starting(): Response {
  return new Response("No Filter is starting…", {
    status: 503,
    headers: { "content-type": "text/plain; charset=utf-8", "retry-after": "1" },
  });
}

/** The request's path as sent: `//_headers` is a path here, not a URL with the host `_headers`. */
function pathOf(req: IncomingMessage): string {
  const target = req.url ?? "/";
  return new URL(target.startsWith("/") ? `http://localhost${target}` : target, "http://localhost").pathname;
}
/** The paths netlify/functions/fediverse.ts declares. */
const isFediversePath = (pathname: string) =>
  ["/.well-known/webfinger", "/.well-known/nodeinfo", "/nodeinfo/2.1"].includes(pathname) || pathname.startsWith("/fediverse/");
const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

async function respond(options: LocalSite, req: IncomingMessage, redirect: ReturnType<typeof siteRedirects>): Promise<Response> {
  const pathname = pathOf(req);
  if (isApiPath(pathname)) {
    return options.api(toWebRequest(req), { ip: req.socket.remoteAddress ?? "127.0.0.1" });
  }
  if (options.preview && pathname.startsWith(previewPathPrefix)) return options.preview(toWebRequest(req));
  if (options.commentsPage && commentsPageSlug(pathname) !== undefined) return options.commentsPage(toWebRequest(req));
  if (options.fediverse && isFediversePath(pathname)) return options.fediverse(toWebRequest(req));
  if (options.accountCommentsPage && isAccountCommentsPath(pathname)) return options.accountCommentsPage(toWebRequest(req));
  if (pathname === options.buildHookPath) {
    if (req.method !== "POST") return new Response("Method not allowed", { status: 405, headers: { allow: "POST" } });
    options.onBuildHook();
    return new Response(null, { status: 202 });
  }
  const reference = await answerApiReference(pathname);
  if (reference) return reference;
  const inbox = await answerInbox(new URL(req.url ?? "/", "http://localhost"), req.method ?? "GET", options.mailCatcher);
  if (inbox) return inbox;
  const hub = await options.websubHub?.answer(pathname, req.method ?? "GET", () => toWebRequest(req));
  if (hub) return hub;
  // TRACE and the like: Netlify refuses them; NetlifyDev would hand them on. A page only reads.
  if (!knownMethods.has(req.method ?? "GET")) {
    return new Response("Method not allowed", {
      status: 405,
      headers: { ...options.siteHeaders, allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" },
    });
  }
  // Netlify reads these from the build and serves neither; the static emulation would send them as files.
  if (isNetlifyRulesFile(pathname)) return notFoundPage(options);
  const redirected = await redirect(pathname);
  if (redirected) return redirected;
  // The Image CDN's emulation (`/.netlify/images`) fetches each source image back from this server.
  const netlify = () => options.netlifyDev.handleAndIntrospectNodeRequest(req, { serverAddress: ownAddress(req) });
  if (pathname === imageCdnPath && req.method === "GET") {
    const image = await imageCache.answer(req.url ?? "", async () => (await netlify())?.response);
    if (image) return image;
  }
  const match = await netlify();
  if (!match) return notFoundPage(options);
  const ruledMiss =
    match.type === "redirect" &&
    match.response.status === 200 &&
    options.notFoundRules.some((rule) => rule(pathname)) &&
    !(await builtPageExists(options.publishDir, pathname));
  if (ruledMiss) return new Response(match.response.body, { status: 404, headers: match.response.headers });
  return match.response;
}

/** `/_headers` or `/_redirects`, however the path spells it (`/%5Fheaders`, `//_redirects/`, any case). */
function isNetlifyRulesFile(pathname: string): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Not a valid escape: the path as it came.
  }
  const name = path.posix.normalize(decoded.replaceAll("\\", "/")).replace(/\/+$/, "").toLowerCase();
  return name === "/_headers" || name === "/_redirects";
}

/** This server's address as the request reached it (loopback, whatever HOST it listens on). */
function ownAddress(req: IncomingMessage): string {
  const host = req.socket.localAddress ?? "127.0.0.1";
  return `http://${host.includes(":") ? `[${host}]` : host}:${String(req.socket.localPort ?? 80)}`;
}

/** Whether the build has a page for `pathname` (as `path/index.html`, `path.html` or the file itself). */
async function builtPageExists(publishDir: string, pathname: string): Promise<boolean> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  const base = path.join(publishDir, path.normalize(decoded).replace(/^(\.\.[/\\])+/, ""));
  for (const candidate of [path.join(base, "index.html"), `${base}.html`, base]) {
    try {
      if ((await stat(candidate)).isFile()) return true;
    } catch {
      // Not this one.
    }
  }
  return false;
}

/** The methods a request may use here (the Blobs emulation writes with PUT and DELETE); any other answers 405. */
const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Netlify serves the built 404 page for any miss, with the site's headers; NetlifyDev answers nothing, so we do. */
async function notFoundPage({ publishDir, siteHeaders }: Pick<LocalSite, "publishDir" | "siteHeaders">): Promise<Response> {
  const headers = { ...siteHeaders, "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" };
  try {
    return new Response(await readFile(path.join(publishDir, "404.html")), { status: 404, headers });
  } catch {
    return new Response('<!doctype html><title>Not found</title><h1>Page Not Found</h1><a href="/">Back to Home</a>', {
      status: 404,
      headers,
    });
  }
}
