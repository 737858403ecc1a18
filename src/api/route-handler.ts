import type { AppDeps } from "../app/app-deps.ts";
import type { Session } from "../core/auth/sessions.ts";
import type { RouteAnswerData, RouteBody, RouteDeclaration, RouteParams, RouteQuery } from "./declare-route.ts";

/** What a handler gets: the request already checked against its route's declaration. */
export interface HandlerContext<Route extends RouteDeclaration> {
  params: RouteParams<Route>;
  query: RouteQuery<Route>;
  body: RouteBody<Route>;
  request: Request;
  deps: AppDeps;
  /** The client's address as the platform saw it (never a raw X-Forwarded-For). */
  clientIp: string;
  /** The client's country (ISO 3166 code) when the platform tells it (Netlify's geo context). */
  country: string | undefined;
  /** The admin session of the request's cookie, looked up once on first ask. */
  session: () => Promise<Session | null>;
  /**
   * Whether the caller gets the owner's answer: a live session, or an API key with the route's
   * scope. The question for "drafts too?"; `session` stays for what only a signed-in owner does.
   */
  owner: () => Promise<boolean>;
  /** Refuses a caller that is not the owner: 401 without a session, 403 naming the scope a key lacks. */
  requireOwner: () => Promise<void>;
}

export type RouteHandler<Route extends RouteDeclaration> = (context: HandlerContext<Route>) => Promise<RouteAnswerData<Route> | Response>;

/** One handler per declared route of a resource. */
export type RouteHandlers<Routes extends Record<string, RouteDeclaration>> = { [Name in keyof Routes]: RouteHandler<Routes[Name]> };

/** A declaration with its handler: what the shared handler serves. */
export type ServedRoute = RouteDeclaration & { handle: RouteHandler<RouteDeclaration> };

/** Pairs each declared route with its handler, in declaration order (which is matching order). */
export function serve<Routes extends Record<string, RouteDeclaration>>(routes: Routes, handlers: RouteHandlers<Routes>): ServedRoute[] {
  return Object.entries(routes).map(([name, route]) => ({ ...route, handle: handlers[name] as unknown as RouteHandler<RouteDeclaration> }));
}
