import { ZodError } from "zod";
import type { AppDeps } from "../core/app-deps.ts";
import { findSession, type Session } from "../core/auth/sessions.ts";
import { AppError, DatabaseUnavailableError, ForbiddenError, RateLimitedError, UnauthorizedError } from "../core/errors.ts";
import { errorResponse, firstIssueMessage } from "./http.ts";
import { matchRoute, type Route } from "./route-table.ts";
import { readSessionToken } from "./session-cookie.ts";
import { createSharedReads } from "./shared-reads.ts";

export interface ApiHandlerOptions {
  routes: readonly Route[];
  deps: () => Promise<AppDeps>;
  /**
   * How long anonymous answers of `shared` routes are shared between requests (shared-reads.ts).
   * 0, the default, reads every time: tests that change the database directly see it at once.
   */
  sharedReadMs?: number;
}

export interface ClientInfo {
  /** From Netlify's `context.ip` (locally: the socket's address). */
  ip: string;
  /** Netlify's `context.waitUntil`: keeps the function alive for work after the response. */
  waitUntil?: (promise: Promise<unknown>) => void;
}

export type ApiHandler = (request: Request, client: ClientInfo) => Promise<Response>;

/** One way into the API: route lookup, dependencies, and every error turned into its status. */
export function createApiHandler(options: ApiHandlerOptions): ApiHandler {
  const sharedReads = createSharedReads(options.sharedReadMs ?? 0);
  return async (request, client) => {
    const url = new URL(request.url);
    const match = matchRoute(options.routes, request.method, url.pathname);
    if (!("route" in match)) {
      if (match.allowed.length === 0) return errorResponse(404, "Not found");
      return errorResponse(405, "Method not allowed", { allow: match.allowed.join(", ") });
    }
    try {
      const processDeps = await options.deps();
      // A rebuild asked for during this request may outlive the response: tie it to the request.
      const deps = { ...processDeps, rebuild: () => processDeps.rebuild({ waitUntil: client.waitUntil }) };
      if (!safeMethods.has(request.method)) checkSameOrigin(request, deps.env.SITE_URL);
      let session: Promise<Session | null> | undefined;
      const context = {
        request,
        url,
        params: match.params,
        deps,
        clientIp: client.ip,
        session: () => (session ??= findSession(deps, readSessionToken(request))),
      };
      if (match.route.access === "admin" && !(await context.session())) {
        throw new UnauthorizedError("Your session has expired. Please log in again.");
      }
      if (match.route.shared && request.method === "GET" && readSessionToken(request) === undefined) {
        return await sharedReads.answer(url.pathname + url.search, () => match.route.handle(context));
      }
      const response = await match.route.handle(context);
      if (!safeMethods.has(request.method) && response.ok) sharedReads.clear();
      return response;
    } catch (error) {
      return errorToResponse(error, request);
    }
  };
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * State-changing calls must come from the site's own pages: the browser's `Origin` must be the
 * site's (or, without one, `Sec-Fetch-Site: same-origin`). Stops cross-site form posts and fetches.
 */
function checkSameOrigin(request: Request, siteUrl: string | undefined): void {
  const origin = request.headers.get("origin");
  if (origin) {
    const allowed = new Set([new URL(request.url).origin, ...(siteUrl ? [new URL(siteUrl).origin] : [])]);
    if (allowed.has(origin)) return;
  } else if (request.headers.get("sec-fetch-site") === "same-origin") {
    return;
  }
  throw new ForbiddenError("Cross-site requests are not allowed");
}

export function errorToResponse(error: unknown, request: Request): Response {
  if (error instanceof DatabaseUnavailableError) {
    console.error(`[api] ${request.method} ${new URL(request.url).pathname}: database unavailable:`, error.cause ?? error);
    return errorResponse(error.status, error.message, { "retry-after": String(error.retryAfterSeconds) });
  }
  if (error instanceof RateLimitedError) {
    return errorResponse(error.status, error.message, { "retry-after": String(error.retryAfterSeconds) });
  }
  if (error instanceof AppError) return errorResponse(error.status, error.message);
  if (error instanceof ZodError) return errorResponse(400, firstIssueMessage(error));
  console.error(`[api] ${request.method} ${new URL(request.url).pathname} failed:`, error);
  return errorResponse(500, "Something went wrong on our side. Please try again.");
}
