import type { Method } from "./declare-route.ts";

export interface RouteMatch<Route> {
  route: Route;
  params: Record<string, string>;
}

/** Finds the route for a method and path; `allowed` lists the methods of a path that exists. */
export function matchRoute<Route extends { method: Method; path: string }>(
  routes: readonly Route[],
  method: string,
  pathname: string,
): RouteMatch<Route> | { allowed: Method[] } {
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
