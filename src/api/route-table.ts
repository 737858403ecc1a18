import type { AppDeps } from "../core/app-deps.ts";
import type { Session } from "../core/auth/sessions.ts";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** What a handler gets: the request, the path parameters and the process's dependencies. */
export interface RouteContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  deps: AppDeps;
  /** The client's address as the platform saw it (never a raw X-Forwarded-For). */
  clientIp: string;
  /** The admin session of the request's cookie, looked up once on first ask. */
  session: () => Promise<Session | null>;
}

export interface Route {
  method: Method;
  /** Pattern under the site root, with `:name` segments, e.g. `/api/blog-posts/:id`. */
  path: string;
  /** `admin`: answered 401 unless the request carries a live admin session. Default `public`. */
  access?: "public" | "admin";
  /**
   * `true`: a GET whose answer without a session cookie is the same for everyone, so it may be
   * shared between requests for a moment (see shared-reads.ts).
   */
  shared?: boolean;
  handle: (context: RouteContext) => Promise<Response>;
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** Finds the route for a method and path; `allowed` lists the methods of a path that exists. */
export function matchRoute(routes: readonly Route[], method: string, pathname: string): RouteMatch | { allowed: Method[] } {
  const segments = splitPath(pathname);
  const allowed: Method[] = [];
  for (const route of routes) {
    const params = matchSegments(splitPath(route.path), segments);
    if (!params) continue;
    if (route.method === method || (method === "HEAD" && route.method === "GET")) return { route, params };
    allowed.push(route.method);
  }
  return { allowed };
}

function splitPath(path: string): string[] {
  return path.split("/").filter(Boolean);
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const value = actual[index] as string;
    if (part.startsWith(":")) {
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        return undefined;
      }
    } else if (part !== value) {
      return undefined;
    }
  }
  return params;
}
