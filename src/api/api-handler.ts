import { ZodError, type z } from "zod";
import type { AppDeps } from "../app/app-deps.ts";
import { authenticateApiKey, requireScope, takeApiKeyCall, type ApiKeyCaller } from "../core/api-keys/api-keys.service.ts";
import { findSession, type Session } from "../core/auth/sessions.ts";
import {
  AppError,
  DatabaseUnavailableError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from "../core/errors.ts";
import { sessionExpiredMessage } from "../core/messages.ts";
import { firstAnswerOf, type RouteDeclaration } from "./declare-route.ts";
import { readBearerKey } from "./bearer-key.ts";
import { refuseControlCharacters } from "./control-characters.ts";
import { isFormPost, readForm } from "./forms.ts";
import { errorResponse, firstIssueMessage, isSameOrigin, json, readJson } from "./http.ts";
import type { HandlerContext, ServedRoute } from "./route-handler.ts";
import { matchRoute } from "./route-table.ts";
import { readSessionToken } from "./session-cookie.ts";
import { createSharedReads } from "./shared-reads.ts";
import { withSiteHeaders } from "./site-pages.ts";

export interface ApiHandlerOptions {
  routes: readonly ServedRoute[];
  deps: () => Promise<AppDeps>;
  /**
   * How long anonymous answers of `shared` routes are shared between requests (shared-reads.ts).
   * 0, the default, reads every time: tests that change the database directly see it at once.
   */
  sharedReadMs?: number;
  /**
   * Check every JSON answer against its declared schema (a mismatch is a 500). For tests: an answer
   * that drifts from the contract fails them, at no cost to production.
   */
  checkAnswers?: boolean;
}

export interface ClientInfo {
  /** From Netlify's `context.ip` (locally: the socket's address). */
  ip: string;
  /** Netlify's `context.geo.country.code`, when the platform tells it (never locally). */
  country?: string | undefined;
  /** Netlify's `context.waitUntil`: keeps the function alive for work after the response. */
  waitUntil?: (promise: Promise<unknown>) => void;
}

export type ApiHandler = (request: Request, client: ClientInfo) => Promise<Response>;

/** One way into the API: route lookup, the declared checks, dependencies, and every error turned into its status. */
export function createApiHandler(options: ApiHandlerOptions): ApiHandler {
  const sharedReads = createSharedReads(options.sharedReadMs ?? 0);
  return async (request, client) => {
    const url = new URL(request.url);
    const match = matchRoute(options.routes, request.method, url.pathname);
    if (!("route" in match)) {
      if (match.allowed.length === 0) return errorResponse(404, "Not found");
      return errorResponse(405, "Method not allowed", { allow: match.allowed.join(", ") });
    }
    const { route } = match;
    const formPost = route.body?.form && isFormPost(request) ? route.body.form : undefined;
    try {
      const processDeps = await options.deps();
      // An event recorded for a webhook during this request is delivered after the answer (its transaction committed by then).
      let webhooksRecorded = false;
      // A rebuild asked for during this request may outlive the response: tie it to the request.
      const deps = {
        ...processDeps,
        rebuild: () => processDeps.rebuild({ waitUntil: client.waitUntil }),
        kickSends: () => processDeps.kickSends({ waitUntil: client.waitUntil }),
        startJob: (job: Parameters<typeof processDeps.startJob>[0]) => processDeps.startJob(job, { waitUntil: client.waitUntil }),
        ...(client.waitUntil && { waitUntil: client.waitUntil }),
        webhooksRecorded: () => {
          webhooksRecorded = true;
        },
      };
      const caller = await apiKeyCaller(deps, request, route);
      // A token-checked endpoint is called from outside the site on purpose (a mail provider's
      // one-click POST), and so is a call with an API key (curl, a CRM): the key proves who calls.
      if (!caller && !safeMethods.has(request.method) && route.crossSite !== "token") checkSameOrigin(request, deps.env.SITE_URL);
      let session: Promise<Session | null> | undefined;
      // A call with a key is the key's alone: a cookie beside it is not read.
      const findOnce = () => (session ??= caller ? Promise.resolve(null) : findSession(deps, readSessionToken(request)));
      const owner = async () => (caller ? hasScope(caller, route) : (await findOnce()) !== null);
      const requireOwner = async () => {
        if (caller) requireScope(caller, route.scope);
        else if (!(await findOnce())) throw new UnauthorizedError(sessionExpiredMessage);
      };
      if (route.access === "admin" && !caller && !(await findOnce())) throw new UnauthorizedError(sessionExpiredMessage);
      const params = parseParams(route, match.params);
      const query = parseQuery(route, url.searchParams);
      const answer = async () => {
        type Context = HandlerContext<RouteDeclaration>;
        const context: Context = {
          params: params as Context["params"],
          query: query as Context["query"],
          body: (await readBody(route, request, Boolean(formPost))) as Context["body"],
          request,
          deps,
          clientIp: client.ip,
          country: client.country,
          session: findOnce,
          owner,
          requireOwner,
        };
        const result = await route.handle(context);
        // A handler may answer a form post itself (a redirect that keeps the page's token).
        if (formPost && !(result instanceof Response))
          return seeOther(typeof formPost.success === "string" ? formPost.success : formPost.success(result));
        return result instanceof Response ? result : toResponse(route, result, options.checkAnswers ?? false);
      };
      if (route.shared && request.method === "GET" && readSessionToken(request) === undefined && !caller) {
        // Keyed by what the route reads, so a query it ignores makes no new entry.
        return withSiteHeaders(request, await sharedReads.answer(`${url.pathname}?${JSON.stringify(query ?? {})}`, answer));
      }
      const response = await answer();
      if (webhooksRecorded && client.waitUntil && processDeps.deliverWebhooks) client.waitUntil(processDeps.deliverWebhooks());
      if (!safeMethods.has(request.method) && response.ok) sharedReads.clear();
      // An answer that may hold the owner's data is never kept by a browser or a proxy.
      if (route.access !== "public") response.headers.set("cache-control", "no-store");
      response.headers.set("x-content-type-options", "nosniff");
      return withSiteHeaders(request, response);
    } catch (error) {
      const response = errorToResponse(error, request);
      // A visitor's form without JavaScript lands on a page that says what happened, whatever
      // failed (a refusal, a cross-site 403, our own 500): never on raw JSON.
      return withSiteHeaders(request, formPost ? seeOther(failurePage(formPost.failure, response.status)) : response);
    }
  };
}

/**
 * The key of `Authorization: Bearer`, checked (401 unknown or revoked), counted (429 past its
 * limit, refused calls included) and held to the route's scope (403 naming it); undefined without one.
 */
async function apiKeyCaller(deps: AppDeps, request: Request, route: RouteDeclaration): Promise<ApiKeyCaller | undefined> {
  const key = readBearerKey(request);
  if (key === undefined) return undefined;
  const caller = await authenticateApiKey(deps, key);
  await takeApiKeyCall(deps, caller);
  if (route.access === "admin") requireScope(caller, route.scope);
  return caller;
}

/** Whether a key reaches the owner's answer of a `session` route (or an `admin` one). */
function hasScope(caller: ApiKeyCaller, route: RouteDeclaration): boolean {
  return route.scope !== undefined && route.scope !== "none" && caller.scopes.includes(route.scope);
}

/**
 * Where a form posted without JavaScript lands when it failed: its failure page, or for a 503 (the
 * database is away for a moment) the page beside it, `<failure>try-later/`, that says to try again
 * in a minute rather than to check what was typed.
 */
export function failurePage(failure: string, status: number): string {
  return status === 503 ? `${failure.replace(/\/?$/, "/")}try-later/` : failure;
}

/** Path parameters that fail their schema name nothing: 404 with the schema's message. */
function parseParams(route: RouteDeclaration, raw: Record<string, string>): unknown {
  refuseControlCharacters(raw);
  if (!route.params) return undefined;
  const result = route.params.safeParse(raw);
  if (!result.success) throw new NotFoundError(firstIssueMessage(result.error));
  return result.data;
}

function parseQuery(route: RouteDeclaration, searchParams: URLSearchParams): unknown {
  const raw = Object.fromEntries(searchParams);
  refuseControlCharacters(raw);
  if (!route.query) return undefined;
  return parseOr400(route.query, raw);
}

function parseOr400<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(firstIssueMessage(result.error));
  return result.data;
}

async function readBody(route: RouteDeclaration, request: Request, formPost: boolean): Promise<unknown> {
  if (!route.body) return undefined;
  if (route.body.type === "multipart" || formPost) return readForm(request, route.body.schema);
  return readJson(request, route.body.schema, route.body.maxBytes);
}

/** A handler's plain value as its route's first declared answer. */
function toResponse(route: RouteDeclaration, data: unknown, check: boolean): Response {
  const { status, answer } = firstAnswerOf(route);
  if (answer.kind === "empty") return new Response(null, { status });
  if (answer.kind !== "json") throw new Error(`${route.method} ${route.path}: a ${answer.kind} answer must be a Response`);
  if (check) {
    const result = answer.schema.safeParse(data);
    if (!result.success) throw new Error(`${route.method} ${route.path} answered outside its schema: ${result.error.message}`);
  }
  return json(data, { status });
}

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location } });

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * State-changing calls must come from the site's own pages: the browser's `Origin` must be the
 * site's (or, without one, `Sec-Fetch-Site: same-origin`). Stops cross-site form posts and fetches.
 */
function checkSameOrigin(request: Request, siteUrl: string | undefined): void {
  if (!isSameOrigin(request, siteUrl)) throw new ForbiddenError("Cross-site requests are not allowed");
}

export function errorToResponse(error: unknown, request: Request): Response {
  if (error instanceof DatabaseUnavailableError) {
    console.error(`[api] ${request.method} ${new URL(request.url).pathname}: database unavailable:`, error.cause ?? error);
    return errorResponse(error.status, error.message, { "retry-after": String(error.retryAfterSeconds) });
  }
  if (error instanceof RateLimitedError) {
    return errorResponse(error.status, error.message, { "retry-after": String(error.retryAfterSeconds) });
  }
  if (error instanceof AppError && error.code) return json({ error: error.message, code: error.code }, { status: error.status });
  if (error instanceof AppError) return errorResponse(error.status, error.message);
  if (error instanceof ZodError) return errorResponse(400, firstIssueMessage(error));
  console.error(`[api] ${request.method} ${new URL(request.url).pathname} failed:`, error);
  return errorResponse(500, "Something went wrong on our side. Please try again.");
}
